export { ChatSession } from "./session/chat-session.js";
export type { CreateSessionArgs, WebSocketManagerFactory } from "./session/chat-session.js";
export { SessionTypes } from "./session/chat-details.js";
export type {
  ChatDetails,
  ChatDetailsInput,
  ConnectionTokenResponse,
  SessionType,
} from "./session/chat-details.js";
export type { ChatEvent, ChatEventMap, ChatEventName, ConnectResult } from "./session/events.js";
export type {
  MessageProcessingStatus,
  MessageStatus,
  TranscriptItem,
  TranscriptUpdate,
} from "./session/transcript.js";
export type {
  ChatResult,
  ConnectArgs,
  DescribeViewArgs,
  DownloadAttachmentArgs,
  GetTranscriptArgs,
  SendAttachmentArgs,
  SendEventArgs,
  SendMessageArgs,
  SendMessageReceiptArgs,
  TranscriptStartPosition,
} from "./session/requests.js";
export type { AttachmentInput, AttachmentUploadResult } from "./session/attachments.js";
export type { ChatDetailsSnapshot, ConnectionDetails } from "./session/connection-details.js";
export type { ConnectionStatus } from "./session/connection-helper.js";
export { NetworkLinkStatus } from "./session/network-link.js";
export {
  EVENT_ALREADY_FIRED,
  MISSING_MESSAGE_ID,
  FAILED_TO_SEND_RECEIPT,
} from "./session/receipts.js";
export type { ReceiptContentType } from "./session/receipts.js";
export { LogLevel } from "./core/logger.js";
export type { LoggerConfig, LogLevelValue } from "./core/logger.js";
export type { GlobalConfigInput, MessageReceiptsFeature } from "./core/global-config.js";
export { ChatClientError, isFinalError } from "./core/errors.js";
export { backoffDelayMs } from "./core/backoff.js";
export type { Unsubscribe } from "./core/emitter.js";
export type { ChatErrorName, RequestError } from "./core/errors.js";
export type { OperationResult, ResponseMetadata, WithMetadata } from "./api/participant-client.js";
export { createWebSocketManager } from "./websocket/index.js";
export type { WebSocketManager, WebSocketTransport, TransportFetcher } from "./websocket/types.js";
export type { ClientEnv, Logger, WebSocketLike, WebSocketConstructor, FetchLike } from "./env.js";
export { createProgressFetch } from "./progress-fetch.js";
export type { ProgressFetch, ProgressListener } from "./progress-fetch.js";
export { connect } from "./namespace.js";
export { connect as default } from "./namespace.js";
export {
  createTelemetry,
  attachSessionMetrics,
  SessionMetricName,
  Metric,
  TelemetryError,
  NullOrUndefinedException,
  AssertTrueException,
  ExceedDimensionLimitException,
  InitializationException,
  DEFAULT_WIDGET_TYPE,
} from "./telemetry/index.js";
export type {
  Telemetry,
  TelemetryOptions,
  TelemetryMode,
  MetricInput,
  WorkflowEventInput,
  SessionMetricSource,
  SharedWorkerFactory,
  TelemetryErrorCode,
} from "./telemetry/index.js";
