/**
 * One chat session's coordinator: it owns the session's state and events and wires its parts
 * together — the connection lifecycle (connection-lifecycle.ts), incoming items through
 * dedupe and gap repair (delivery.ts) to the typed events (item-dispatch.ts), receipts
 * (receipts.ts) and the operations with their checks (session-operations.ts).
 */
import type { OperationResult } from "../api/participant-client.js";
import { Emitter, type Unsubscribe } from "../core/emitter.js";
import { ConnectionDetailsProvider, type ChatDetailsSnapshot } from "./connection-details.js";
import { ConnectionLifecycle } from "./connection-lifecycle.js";
import { Delivery } from "./delivery.js";
import type { ChatEventMap, ConnectResult } from "./events.js";
import { dispatchItem } from "./item-dispatch.js";
import { Outbox } from "./outbox.js";
import { MessageReceipts } from "./receipts.js";
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
import type { ControllerDeps, EmitEvent, TrackTranscript } from "./session-context.js";
import { SessionState } from "./session-state.js";
import { SessionOperations } from "./session-operations.js";
import type { Transcript } from "./transcript.js";

export { CONNECT_FAILED_REASON, DUPLICATE_CONNECT_WARNING } from "./connection-lifecycle.js";
export type { ControllerDeps } from "./session-context.js";

export class ChatController {
  readonly events: Emitter<ChatEventMap>;
  readonly #state: SessionState;
  readonly #provider: ConnectionDetailsProvider;
  readonly #receipts: MessageReceipts;
  readonly #delivery: Delivery;
  readonly #outbox: Outbox<OperationResult<"SendMessage">>;
  readonly #lifecycle: ConnectionLifecycle;
  readonly #operations: SessionOperations;
  /** Emits a session event with the session's chat details. */
  readonly #emit: EmitEvent = (name, data) => {
    const args = [{ data, chatDetails: this.getChatDetails() }] as unknown as Parameters<
      ChatEventMap[typeof name]
    >;
    this.events.emit(name, ...args);
    // As chatjs 5: with the transcript on, every connection reads the latest items.
    if (name === "connectionEstablished" && this.#tracking)
      this.getTranscript({ maxResults: 100 }).catch((error: unknown) =>
        this.#deps.logger.warn("Transcript read on connection failed", error),
      );
  };
  /** Whether something subscribed to `transcriptUpdated` (chatjs's transcriptUpdateEnabled). */
  #tracking = false;
  /** The transcript, once its module loaded (a later chunk of the browser bundle). */
  #transcript: Transcript | undefined;
  /** Changes made while the module loads, applied in order once it has. */
  #pending: Parameters<TrackTranscript>[0][] | undefined;
  readonly #track: TrackTranscript = (change) => {
    const transcript = this.#transcript;
    if (!transcript) this.#pending?.push(change);
    else if (change(transcript) !== false) this.#emit("transcriptUpdated", transcript.update);
  };

  #startTranscript(): void {
    this.#tracking = true;
    const pending: Parameters<TrackTranscript>[0][] = (this.#pending = []);
    import("./transcript.js").then(
      ({ Transcript }) => {
        const transcript = (this.#transcript = new Transcript(this.#deps.sessionType));
        this.#pending = undefined;
        if (pending.map((change) => change(transcript)).some((changed) => changed !== false))
          this.#emit("transcriptUpdated", transcript.update);
      },
      (error: unknown) => {
        this.#pending = undefined;
        this.#deps.logger.error("The transcript failed to load", error);
      },
    );
  }

  readonly #deps: ControllerDeps;
  constructor(deps: ControllerDeps) {
    this.#deps = deps;
    const { client, chatDetails, sessionType, logger, env, config } = deps;
    this.events = new Emitter(logger);
    this.#state = new SessionState(logger);
    this.#provider = new ConnectionDetailsProvider(client, chatDetails, sessionType, logger);
    this.#receipts = new MessageReceipts(
      env,
      logger,
      (receipt) => this.#operations.sendReceipt(receipt),
      () => config.throttleTime,
    );
    this.#delivery = new Delivery({
      deliver: (item) => {
        this.#track((t) => t.received(item, chatDetails.participantId));
        dispatchItem(item, {
          deps,
          state: this.#state,
          emit: this.#emit,
          breakConnection: () => this.#lifecycle.breakConnection(),
        });
      },
      fetchPage: async (request) => {
        const response = await client.getTranscript(
          this.#provider.getConnectionToken() ?? "",
          request,
        );
        this.#receipts.seed(response.Transcript ?? []);
        return response;
      },
      env,
      logger,
    });
    this.#outbox = new Outbox({
      send: (message) =>
        client
          .sendMessage(
            this.#provider.getConnectionToken() ?? "",
            message.content,
            message.contentType,
            message.clientToken,
          )
          .then((stored) => {
            // The service answers: our websocket manager, if lost, tries again soon (issue 23).
            this.#state.connection?.base.manager.serviceAnswered?.();
            return stored;
          }),
      env,
      logger,
    });
    this.#lifecycle = new ConnectionLifecycle(
      deps,
      this.#state,
      this.#provider,
      this.#delivery,
      this.#outbox,
      this.#emit,
    );
    this.#operations = new SessionOperations(
      deps,
      this.#state,
      this.#provider,
      this.#receipts,
      this.#delivery,
      this.#outbox,
      () => {
        this.#state.setState("disconnected");
        this.events.clear();
        this.#receipts.dispose();
        this.#lifecycle.breakConnection();
      },
      this.#track,
    );
  }

  /** Subscribes to a session event; `transcriptUpdated` turns the transcript on. */
  on<K extends keyof ChatEventMap>(event: K, callback: ChatEventMap[K]): Unsubscribe {
    if (event === "transcriptUpdated" && !this.#tracking) this.#startTranscript();
    return this.events.on(event, callback);
  }

  /** Whether the chat has ended (a chat-ended item arrived; reset when a connection is gained). */
  get hasChatEnded(): boolean {
    return this.#state.hasChatEnded;
  }

  set hasChatEnded(value: boolean) {
    this.#state.setState(value ? "chatEnded" : "active");
  }

  connect(args: ConnectArgs = {}): Promise<ConnectResult> {
    return this.#lifecycle.connect(args);
  }

  getChatDetails(): ChatDetailsSnapshot {
    const { contactId, participantId, initialContactId, participantToken } = this.#deps.chatDetails;
    const snapshot: ChatDetailsSnapshot = {
      contactId,
      participantId,
      initialContactId,
      connectionDetails: this.#provider.details,
    };
    if (participantToken) snapshot.participantToken = participantToken;
    return snapshot;
  }

  getConnectionStatus() {
    return this.#state.connection?.getStatus() ?? "NeverStarted";
  }

  getNetworkLinkStatus() {
    return this.#lifecycle.networkLinkStatus;
  }

  sendMessage(args: SendMessageArgs): Promise<ChatResult<OperationResult<"SendMessage">>> {
    return this.#operations.sendMessage(args);
  }

  sendEvent(args: SendEventArgs): Promise<ChatResult<unknown> | { message: string }> {
    return this.#operations.sendEvent(args);
  }

  sendMessageReceipt(
    args: SendMessageReceiptArgs,
  ): Promise<ChatResult<unknown> | { message: string }> {
    return this.#operations.sendMessageReceipt(args);
  }

  sendAttachment(args: SendAttachmentArgs) {
    return this.#operations.sendAttachment(args);
  }

  downloadAttachment(args: DownloadAttachmentArgs): Promise<Blob> {
    return this.#operations.downloadAttachment(args);
  }

  getTranscript(
    args: GetTranscriptArgs = {},
  ): Promise<ChatResult<OperationResult<"GetTranscript">>> {
    return this.#operations.getTranscript(args);
  }

  describeView(args: DescribeViewArgs) {
    return this.#operations.describeView(args);
  }

  disconnectParticipant(): Promise<ChatResult<OperationResult<"DisconnectParticipant">>> {
    return this.#operations.disconnectParticipant();
  }
}
