/**
 * The real adapter: `@chat-widget/chat-client`'s ChatSession (a drop-in for amazon-connect-chatjs).
 * Typed structurally, so the widget depends only on the documented chatjs surface.
 */
import { isFinalError } from "@chat-widget/chat-client";
import type {
  ClientEnv,
  FetchLike,
  ProgressFetch,
  SessionMetricSource,
  WebSocketConstructor,
} from "@chat-widget/chat-client";
import type { Item, StartChatResult } from "@chat-widget/protocol";
import type { Logger } from "../logger.js";
import type { WidgetSettings } from "../settings.js";
import { Text } from "../texts.js";
import type { ChatAdapter, ChatConnection, ChatHandlers } from "./adapter.js";
import { createTransferProgress } from "./transfer-progress.js";

type Unsubscribe = (() => void) | void | undefined;
type ItemEvent = { data: Item };

/** The customer-session surface of chatjs the widget uses. */
export interface CustomerSessionLike {
  connect(): Promise<unknown>;
  onMessage(cb: (event: ItemEvent) => void): Unsubscribe;
  onTyping(cb: (event: ItemEvent) => void): Unsubscribe;
  onReadReceipt(cb: (event: ItemEvent) => void): Unsubscribe;
  onDeliveredReceipt(cb: (event: ItemEvent) => void): Unsubscribe;
  onConnectionBroken(cb: (event: unknown) => void): Unsubscribe;
  onConnectionEstablished(cb: (event: unknown) => void): Unsubscribe;
  onConnectionLost(cb: (event: unknown) => void): Unsubscribe;
  sendMessage(args: {
    message: string;
    contentType: string;
    clientToken?: string;
  }): Promise<{ data: { Id: string; AbsoluteTime: string } }>;
  sendEvent(args: { contentType: string; content?: string }): Promise<unknown>;
  sendAttachment(args: { attachment: File }): Promise<unknown>;
  downloadAttachment(args: { attachmentId: string }): Promise<Blob>;
  getTranscript(args: {
    maxResults: number;
    scanDirection: string;
    sortOrder: string;
    startPosition?: Record<string, unknown>;
    nextToken?: string;
  }): Promise<{ data: { Transcript?: Item[]; NextToken?: string } }>;
  disconnectParticipant(): Promise<unknown>;
}

/** The websocket manager's surface used to let go of a session without ending the chat. */
export interface SocketManagerLike {
  closeWebSocket(): void;
  terminate(): void;
}

export type SocketManagerFactory = (deps: never) => SocketManagerLike;

/** The static side of chatjs's ChatSession. */
export interface ChatSessionLike {
  setGlobalConfig(config: Record<string, unknown>): void;
  create(args: {
    chatDetails: { ContactId: string; ParticipantId: string; ParticipantToken: string };
    type: "CUSTOMER";
    options?: { region?: string };
    webSocketManagerFactory?: SocketManagerFactory;
    env?: Partial<Pick<ClientEnv, "fetch" | "WebSocket">>;
  }): unknown;
}

export interface ClientAdapterOptions {
  /**
   * Creates the session's websocket manager (the client's `createWebSocketManager`); kept, so
   * that `dispose` can close the websocket without disconnecting the participant.
   */
  webSocketManagerFactory?: SocketManagerFactory;
  /**
   * Called with each new session and its ParticipantToken (telemetry, which exchanges the
   * token for its own at the telemetry `/auth`); its return value is called on dispose.
   */
  onSession?: (session: SessionMetricSource, participantToken: string) => () => void;
  /**
   * Makes a progress fetch (the client's `createProgressFetch`): the session's `env.fetch`
   * gives each transfer one of its own, so that every upload reports its own bytes sent
   * (docs/decisions.md #8) and every download its own bytes received, however many overlap.
   */
  progressFetch?: () => ProgressFetch;
  /**
   * Wraps the session's fetch: the first script's early connection (launcher/early-connection.ts)
   * answers the client's first CreateParticipantConnection with the one it asked for.
   */
  wrapFetch?: (fetch: FetchLike) => FetchLike;
  /** Wraps the session's WebSocket: the first script's socket is the client's first (early-socket.ts). */
  wrapWebSocket?: (next: WebSocketConstructor) => WebSocketConstructor;
}

/** What the session takes other than the host's own: its fetch and sockets, when wrapped. */
const sessionEnv = (
  fetch: FetchLike | undefined,
  { wrapWebSocket }: ClientAdapterOptions,
): Partial<ClientEnv> => ({
  ...(fetch ? { fetch } : {}),
  ...(wrapWebSocket
    ? { WebSocket: wrapWebSocket(globalThis.WebSocket as unknown as WebSocketConstructor) }
    : {}),
});

export function createClientAdapter(
  ChatSession: ChatSessionLike,
  settings: WidgetSettings,
  logger: Logger,
  options: ClientAdapterOptions = {},
): ChatAdapter {
  let configured = false;
  return {
    async connect(details: StartChatResult, handlers: ChatHandlers): Promise<ChatConnection> {
      if (!configured) {
        ChatSession.setGlobalConfig({
          region: settings.region,
          endpoint: settings.participantEndpoint,
        });
        configured = true;
      }
      let manager: SocketManagerLike | null = null;
      const factory = options.webSocketManagerFactory;
      const progress = options.progressFetch ? createTransferProgress(options.progressFetch) : null;
      const own = progress?.fetch;
      const sessionFetch = options.wrapFetch
        ? options.wrapFetch(own ?? ((input, init) => fetch(input, init)))
        : own;
      const session = ChatSession.create({
        chatDetails: {
          ContactId: details.ContactId,
          ParticipantId: details.ParticipantId,
          ParticipantToken: details.ParticipantToken,
        },
        type: "CUSTOMER",
        options: { region: settings.region },
        ...(factory ? { webSocketManagerFactory: (deps: never) => (manager = factory(deps)) } : {}),
        ...(sessionFetch || options.wrapWebSocket
          ? { env: sessionEnv(sessionFetch, options) }
          : {}),
      }) as CustomerSessionLike;
      let live = true;
      let stopObserving: () => void = () => {};
      try {
        if (options.onSession)
          stopObserving = options.onSession(
            session as unknown as SessionMetricSource,
            details.ParticipantToken,
          );
      } catch (error) {
        logger.warn("Observing the chat session failed", error);
      }
      const guard =
        <A extends unknown[]>(fn: (...args: A) => void) =>
        (...args: A) => {
          if (live) fn(...args);
        };
      const subscriptions: Unsubscribe[] = [
        session.onMessage(guard((e: ItemEvent) => handlers.onMessage(e.data))),
        session.onTyping(guard((e: ItemEvent) => handlers.onTyping(e.data))),
        session.onReadReceipt(guard((e: ItemEvent) => handlers.onReceipt(e.data))),
        session.onDeliveredReceipt(guard((e: ItemEvent) => handlers.onReceipt(e.data))),
        session.onConnectionBroken(guard(() => handlers.onConnectionBroken())),
        session.onConnectionEstablished(guard(() => handlers.onConnectionEstablished())),
        session.onConnectionLost(guard(() => handlers.onConnectionLost())),
      ];
      const dispose = () => {
        if (!live) return;
        live = false;
        for (const unsubscribe of subscriptions)
          if (typeof unsubscribe === "function") unsubscribe();
        try {
          stopObserving();
        } catch (error) {
          logger.warn("Observing the chat session failed", error);
        }
        // Let go of the websocket; the participant stays connected (docs/decisions.md #6).
        try {
          manager?.closeWebSocket();
          manager?.terminate();
        } catch (error) {
          logger.warn("Closing the websocket failed", error);
        }
      };
      try {
        await session.connect();
      } catch (error) {
        dispose();
        logger.error(Text.UNABLE_TO_CONNECT, error);
        // The client rejects with { _debug: { _debug: the request's error } } (as chatjs does).
        const cause = (error as { _debug?: { _debug?: unknown } } | null)?._debug?._debug ?? error;
        throw Object.assign(new Error(Text.UNABLE_TO_CONNECT), {
          final: isFinalError(cause),
          cause: error,
        });
      }
      return {
        async sendMessage(content, contentType, clientToken) {
          const result = await session.sendMessage({
            message: content,
            contentType,
            ...(clientToken ? { clientToken } : {}),
          });
          return { Id: result.data.Id, AbsoluteTime: result.data.AbsoluteTime };
        },
        async sendEvent(contentType, content) {
          await session.sendEvent(
            content === undefined ? { contentType } : { contentType, content },
          );
        },
        async sendAttachment(file, onProgress) {
          const transfer = () => session.sendAttachment({ attachment: file });
          onProgress(0);
          await (progress ? progress.upload(file, onProgress, transfer) : transfer());
          onProgress(1);
        },
        downloadAttachment(attachmentId, onProgress) {
          const transfer = () => session.downloadAttachment({ attachmentId });
          return progress && onProgress
            ? progress.download(attachmentId, onProgress, transfer)
            : transfer();
        },
        async getTranscript(request) {
          const result = await session.getTranscript({
            maxResults: request.maxResults,
            scanDirection: request.scanDirection,
            sortOrder: request.sortOrder,
            startPosition: {},
            ...(request.nextToken ? { nextToken: request.nextToken } : {}),
          });
          return {
            Transcript: result.data.Transcript ?? [],
            ...(result.data.NextToken ? { NextToken: result.data.NextToken } : {}),
          };
        },
        async disconnect() {
          await session.disconnectParticipant();
        },
        dispose,
      };
    },
  };
}
