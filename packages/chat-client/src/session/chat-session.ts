/**
 * The public facade, a drop-in for amazon-connect-chatjs's `connect.ChatSession`:
 * `ChatSession.create(...)` returns a session whose `on*` methods each return an unsubscribe.
 */
import type { OperationResult } from "../api/participant-client.js";
import { getParticipantClient } from "../api/participant-client.js";
import type { Unsubscribe } from "../core/emitter.js";
import { globalConfig, type GlobalConfigInput } from "../core/global-config.js";
import { LogLevel } from "../core/logger.js";
import { unImplementedMethod } from "../core/errors.js";
import { assertIsObject } from "../core/validation.js";
import { resolveEnv, type ClientEnv, type Logger } from "../env.js";
import { createWebSocketManager } from "../websocket/index.js";
import type { WebSocketManager } from "../websocket/types.js";
import type { AttachmentUploadResult } from "./attachments.js";
import {
  SessionTypes,
  assertSessionType,
  validateChatDetails,
  type ChatDetailsInput,
  type SessionType,
} from "./chat-details.js";
import { ChatController } from "./chat-controller.js";
import type { ConnectionStatus } from "./connection-helper.js";
import { defaultRegistry } from "./connection-helper.js";
import type { ChatDetailsSnapshot } from "./connection-details.js";
import type { ChatEventMap, ConnectResult } from "./events.js";
import type { NetworkLinkStatus } from "./network-link.js";
import type {
  ChatResult,
  ConnectArgs,
  DescribeViewArgs,
  DownloadAttachmentArgs,
  GetTranscriptArgs,
  SendAttachmentArgs,
  SendEventArgs,
  SendMessageArgs,
  SendMessageReceiptArgs,
} from "./requests.js";

/** Builds the websocket manager of a customer connection (tests inject fakes here). */
export type WebSocketManagerFactory = (deps: {
  env: ClientEnv;
  logger: Logger;
}) => WebSocketManager;

export interface CreateSessionArgs {
  chatDetails: ChatDetailsInput;
  /** "CUSTOMER" or "AGENT" (default AGENT, as chatjs). */
  type?: SessionType;
  options?: { region?: string };
  /** A shared websocket manager (agent sessions); customers create their own per contact. */
  websocketManager?: WebSocketManager;
  /** Timers, clock, random, WebSocket and fetch for this session. */
  env?: Partial<ClientEnv>;
  webSocketManagerFactory?: WebSocketManagerFactory;
  /** Accepted for chatjs compatibility; telemetry is not started by sessions. */
  disableCSM?: boolean;
}

type Callback<K extends keyof ChatEventMap> = ChatEventMap[K];

/** A customer or agent chat session. */
export interface ChatSession {
  connect(args?: ConnectArgs): Promise<ConnectResult>;
  sendMessage(args: SendMessageArgs): Promise<ChatResult<OperationResult<"SendMessage">>>;
  sendAttachment(args: SendAttachmentArgs): Promise<ChatResult<AttachmentUploadResult>>;
  downloadAttachment(args: DownloadAttachmentArgs): Promise<Blob>;
  sendEvent(args: SendEventArgs): Promise<ChatResult<unknown> | { message: string }>;
  sendMessageReceipt(
    args: SendMessageReceiptArgs,
  ): Promise<ChatResult<unknown> | { message: string }>;
  getTranscript(args?: GetTranscriptArgs): Promise<ChatResult<OperationResult<"GetTranscript">>>;
  describeView(args: DescribeViewArgs): Promise<ChatResult<OperationResult<"DescribeView">>>;
  disconnectParticipant(): Promise<ChatResult<OperationResult<"DisconnectParticipant">>>;
  getChatDetails(): ChatDetailsSnapshot;
  getConnectionStatus(): ConnectionStatus;
  /** NeverEstablished, Establishing, Established or Broken (see network-link.ts). */
  getNetworkLinkStatus(): NetworkLinkStatus;
  on<K extends keyof ChatEventMap>(event: K, callback: Callback<K>): Unsubscribe;
  onMessage(callback: Callback<"message">): Unsubscribe;
  onTyping(callback: Callback<"typing">): Unsubscribe;
  onReadReceipt(callback: Callback<"readReceipt">): Unsubscribe;
  onDeliveredReceipt(callback: Callback<"deliveredReceipt">): Unsubscribe;
  onConnectionEstablished(callback: Callback<"connectionEstablished">): Unsubscribe;
  onConnectionBroken(callback: Callback<"connectionBroken">): Unsubscribe;
  onConnectionLost(callback: Callback<"connectionLost">): Unsubscribe;
  onEnded(callback: Callback<"ended">): Unsubscribe;
  onParticipantIdle(callback: Callback<"participantIdle">): Unsubscribe;
  onParticipantReturned(callback: Callback<"participantReturned">): Unsubscribe;
  onParticipantInvited(callback: Callback<"participantInvited">): Unsubscribe;
  onAutoDisconnection(callback: Callback<"autoDisconnection">): Unsubscribe;
  onChatRehydrated(callback: Callback<"chatRehydrated">): Unsubscribe;
  onParticipantDisplayNameUpdated(callback: Callback<"participantDisplayNameUpdated">): Unsubscribe;
  onAuthenticationEvent(callback: Callback<"authenticationEvent">): Unsubscribe;
  onDeepHeartbeatSuccess(callback: Callback<"deepHeartbeatSuccess">): Unsubscribe;
  onDeepHeartbeatFailure(callback: Callback<"deepHeartbeatFailure">): Unsubscribe;
  onConnectionAcknowledged(callback: Callback<"connectionAcknowledged">): Unsubscribe;
  onTranscriptUpdated(callback: Callback<"transcriptUpdated">): Unsubscribe;
}

/** The ChatController methods a session forwards to, one argument each. */
const FORWARDED = [
  "connect",
  "sendMessage",
  "sendAttachment",
  "downloadAttachment",
  "sendEvent",
  "sendMessageReceipt",
  "getTranscript",
  "describeView",
  "disconnectParticipant",
  "getChatDetails",
  "getConnectionStatus",
  "getNetworkLinkStatus",
] as const;
type Forwarded = (typeof FORWARDED)[number];

/** The events with an `on<Event>` shorthand, in the order the session defines them. */
const ON_EVENTS = [
  "message",
  "typing",
  "readReceipt",
  "deliveredReceipt",
  "connectionEstablished",
  "connectionBroken",
  "connectionLost",
  "ended",
  "participantIdle",
  "participantReturned",
  "participantInvited",
  "autoDisconnection",
  "chatRehydrated",
  "participantDisplayNameUpdated",
  "authenticationEvent",
  "deepHeartbeatSuccess",
  "deepHeartbeatFailure",
  "connectionAcknowledged",
  "transcriptUpdated",
] as const satisfies readonly (keyof ChatEventMap)[];

class Session implements ChatSession {
  constructor(controller: ChatController) {
    // Own properties, in this order: the operations, `on`, its shorthands.
    const self = this as unknown as Record<string, unknown>;
    const forward = controller as unknown as Record<Forwarded, (args: unknown) => unknown>;
    for (const name of FORWARDED) self[name] = (args: unknown) => forward[name](args);
    this.on = (event, cb) => controller.on(event, cb);
    for (const event of ON_EVENTS) {
      self[`on${event[0]!.toUpperCase()}${event.slice(1)}`] = (cb: Callback<typeof event>) =>
        this.on(event, cb);
    }
  }

  declare connect: ChatSession["connect"];
  declare sendMessage: ChatSession["sendMessage"];
  declare sendAttachment: ChatSession["sendAttachment"];
  declare downloadAttachment: ChatSession["downloadAttachment"];
  declare sendEvent: ChatSession["sendEvent"];
  declare sendMessageReceipt: ChatSession["sendMessageReceipt"];
  declare getTranscript: ChatSession["getTranscript"];
  declare describeView: ChatSession["describeView"];
  declare disconnectParticipant: ChatSession["disconnectParticipant"];
  declare getChatDetails: ChatSession["getChatDetails"];
  declare getConnectionStatus: ChatSession["getConnectionStatus"];
  declare getNetworkLinkStatus: ChatSession["getNetworkLinkStatus"];
  declare on: ChatSession["on"];
  declare onMessage: ChatSession["onMessage"];
  declare onTyping: ChatSession["onTyping"];
  declare onReadReceipt: ChatSession["onReadReceipt"];
  declare onDeliveredReceipt: ChatSession["onDeliveredReceipt"];
  declare onConnectionEstablished: ChatSession["onConnectionEstablished"];
  declare onConnectionBroken: ChatSession["onConnectionBroken"];
  declare onConnectionLost: ChatSession["onConnectionLost"];
  declare onEnded: ChatSession["onEnded"];
  declare onParticipantIdle: ChatSession["onParticipantIdle"];
  declare onParticipantReturned: ChatSession["onParticipantReturned"];
  declare onParticipantInvited: ChatSession["onParticipantInvited"];
  declare onAutoDisconnection: ChatSession["onAutoDisconnection"];
  declare onChatRehydrated: ChatSession["onChatRehydrated"];
  declare onParticipantDisplayNameUpdated: ChatSession["onParticipantDisplayNameUpdated"];
  declare onAuthenticationEvent: ChatSession["onAuthenticationEvent"];
  declare onDeepHeartbeatSuccess: ChatSession["onDeepHeartbeatSuccess"];
  declare onDeepHeartbeatFailure: ChatSession["onDeepHeartbeatFailure"];
  declare onConnectionAcknowledged: ChatSession["onConnectionAcknowledged"];
  declare onTranscriptUpdated: ChatSession["onTranscriptUpdated"];
}

let sharedEnv: ClientEnv | undefined;

const REQUIRED_MANAGER_METHODS = [
  "subscribeTopics",
  "onMessage",
  "onConnectionGain",
  "onConnectionLost",
  "onInitFailure",
  "onDeepHeartbeatSuccess",
  "onDeepHeartbeatFailure",
] as const;

/** A supplied (third-party) websocket manager must implement what the session uses. */
function assertWebSocketManager(manager: WebSocketManager): void {
  for (const method of REQUIRED_MANAGER_METHODS) {
    if (typeof manager[method] !== "function")
      throw unImplementedMethod(`websocketManager.${method}`);
  }
}

function create(args: CreateSessionArgs): ChatSession {
  assertIsObject(args, "args");
  const type = args.type ?? SessionTypes.AGENT;
  assertSessionType(type);
  const chatDetails = validateChatDetails(args.chatDetails, type);
  if (args.websocketManager) assertWebSocketManager(args.websocketManager);
  const env = args.env ? resolveEnv(args.env) : (sharedEnv ??= resolveEnv());
  const logger = globalConfig.logManager.getLogger(`ChatSession ${chatDetails.contactId}`);
  const region = globalConfig.resolveRegion(args.options?.region);
  const client = getParticipantClient(region, globalConfig.endpoint, env, logger);
  const factory: WebSocketManagerFactory =
    args.webSocketManagerFactory ?? ((deps) => createWebSocketManager(deps));
  const controller = new ChatController({
    sessionType: type,
    chatDetails,
    client,
    env,
    logger,
    config: globalConfig,
    registry: defaultRegistry,
    ...(args.websocketManager ? { websocketManager: args.websocketManager } : {}),
    createWebSocketManager: () =>
      factory({ env, logger: globalConfig.logManager.getLogger("WebSocketManager") }),
  });
  return new Session(controller);
}

/** `connect.ChatSession` of amazon-connect-chatjs. */
export const ChatSession = {
  create,
  setGlobalConfig: (config: GlobalConfigInput) => globalConfig.update(config),
  /** Region used by every later `create`, above the session's and the global region. */
  setRegionOverride: (region: string) => {
    globalConfig.regionOverride = region;
  },
  SessionTypes,
  LogLevel,
} as const;
