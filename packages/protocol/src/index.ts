export {
  ContentType,
  EVENT_CONTENT_TYPES,
  SEND_MESSAGE_CONTENT_TYPES,
  SEND_EVENT_CONTENT_TYPES,
  ATTACHMENT_CONTENT_TYPES,
  KNOWN_CONTENT_TYPES,
  WIDGET_SUPPORTED_MESSAGING_CONTENT_TYPES,
  isEventContentType,
} from "./content-types.js";
export type { ContentTypeValue } from "./content-types.js";
export { ParticipantRole, ItemType, isItem, isObject } from "./items.js";
export type {
  ParticipantRoleValue,
  ItemTypeValue,
  AttachmentStatus,
  AttachmentItem,
  Receipt,
  MessageMetadata,
  Item,
} from "./items.js";
export { ParticipantPath, BEARER_HEADER } from "./operations.js";
export type * from "./operations.js";
export {
  AwsErrorStatus,
  ERROR_TYPE_HEADER,
  REQUEST_ID_HEADER,
  parseAwsErrorName,
  parseAwsErrorMessage,
} from "./errors.js";
export type { AwsErrorName, AwsErrorBody } from "./errors.js";
export {
  Topic,
  RESERVED_TOPICS,
  subscribeFrame,
  subscribeResponseFrame,
  heartbeatFrame,
  pingFrame,
  pingResponseFrame,
  chatFrame,
  parseFrame,
} from "./websocket.js";
export type {
  TopicValue,
  WebSocketEnvelope,
  SubscribeRequestContent,
  SubscribeResponseContent,
  ParsedFrame,
} from "./websocket.js";
export { LIST_PICKER_MAX_ELEMENTS, parseListPicker } from "./interactive.js";
export type {
  InteractiveElement,
  ListPickerContent,
  ListPickerTemplate,
  ReplyMessage,
} from "./interactive.js";
export { TemplateLimits, carouselSelection, checkTemplate, isSlotDate } from "./templates.js";
export type {
  CarouselTemplate,
  ListTemplate,
  Template,
  TemplateCheck,
  TimePickerTemplate,
  TimeSlot,
} from "./templates.js";
export { GatewayPath, SNIPPET_ID_HEADER, DemoIds } from "./gateway.js";
export type {
  VerifyResponse,
  StartChatRequest,
  StartChatResult,
  StartChatResponse,
  DiscussedOrderNumberRequest,
  FeaturePermissions,
} from "./gateway.js";
export {
  TelemetryPath,
  METRIC_UNITS,
  MAX_METRIC_DIMENSIONS,
  WIDGET_METRIC_NAMESPACE,
  WIDGET_TYPE_DIMENSION,
} from "./telemetry.js";
export type {
  MetricUnit,
  Dimension,
  WireMetric,
  AuthParams,
  PutMetricsRequest,
  PutMetricsResponse,
  WireWorkflowEvent,
  PutWorkflowEventsRequest,
  PutWorkflowEventsResponse,
  AuthRequest,
  AuthResponse,
} from "./telemetry.js";
export { Limits } from "./limits.js";
export { ATTACHMENT_EXTENSIONS, attachmentNameProblem } from "./attachment-names.js";
export {
  AgentApiPath,
  agentContactPath,
  ADVISOR_AVAILABILITIES,
  MAX_CONCURRENT_CHATS,
  ORDER_NUMBER_ATTRIBUTE,
  QUEUE_TEXT_MAX,
} from "./agent-api.js";
export type {
  AdvisorAvailability,
  Advisor,
  SignInRequest,
  SignInResponse,
  MeResponse,
  AvailabilityRequest,
  QueuedContact,
  QueueResponse,
  QueueChange,
  AcceptResponse,
  ActiveChat,
  AttributeSource,
  ChatsResponse,
  ConnectionTokenResponse,
  AgentEvent,
  WebSocketTransportResponse,
} from "./agent-api.js";
export {
  VisitorApiPath,
  EMAIL_ATTRIBUTE,
  VISITOR_PAGE_PATH,
  VisitorPageLimits,
} from "./visitor.js";
export type { VisitorResponse, VisitorPage, VisitorPageRequest, VisitorChange } from "./visitor.js";
export {
  HistoryApiPath,
  EARLIER_CONVERSATIONS_MAX,
  FIRST_LINE_MAX,
  TRANSCRIPT_PAGE_SIZE,
  HISTORY_PAGE_SIZE,
  HISTORY_VISITOR_MAX,
  HISTORY_SEARCH_MAX,
  HISTORY_SEARCH_WORDS,
} from "./history.js";
export type {
  HistoryAdvisorsResponse,
  HistoryConversation,
  HistoryQuery,
  HistoryResponse,
  EarlierConversation,
  EarlierConversationsResponse,
  ConversationTranscriptResponse,
} from "./history.js";
export { NotesApiPath, NOTE_MAX } from "./notes.js";
export type { NewNoteRequest, Note, NotesResponse, MentionEvent } from "./notes.js";
export { CannedApiPath, CannedLimits, cannedPath } from "./canned.js";
export type { CannedInput, CannedResponse, CannedListResponse } from "./canned.js";
export { newClientToken } from "./client-token.js";
export { TransferApiPath, TRANSFER_NOTE_MAX } from "./transfer.js";
export type {
  TransferRequest,
  TransferResponse,
  TransferTarget,
  TransferTargetsResponse,
} from "./transfer.js";
export { WrapUpApiPath, TagLimits, WRAP_UP_MAX, normalTag } from "./wrap-up.js";
export type {
  TagsRequest,
  TagsResponse,
  TagSuggestionsResponse,
  WrapUpRequest,
} from "./wrap-up.js";
