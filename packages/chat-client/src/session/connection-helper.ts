/**
 * Connection helpers (docs/product.md §4): a shared helper wraps one websocket manager and keeps the
 * connection status; a per-contact wrapper filters items for its contact and reports Ended
 * once ended. Customers share one helper per contact (closed when no message subscribers
 * remain); agents share one helper, replaced when the websocket manager differs.
 */
import {
  ContentType,
  ItemType,
  Topic,
  isItem,
  type Item,
  type WebSocketEnvelope,
} from "@chat-widget/protocol";
import { Emitter, type Unsubscribe } from "../core/emitter.js";
import { isRequestError } from "../core/errors.js";
import type { Logger } from "../env.js";
import type { TransportFetcher, WebSocketManager } from "../websocket/types.js";

/** The connection status model, one string union changed only by `setState`. */
export type ConnectionStatus =
  | "NeverStarted"
  | "Starting"
  | "Connected"
  | "ConnectionLost"
  | "Ended"
  | "DeepHeartbeatSuccess"
  | "DeepHeartbeatFailure";

export const CONNECTION_STATUSES: readonly ConnectionStatus[] = [
  "NeverStarted",
  "Starting",
  "Connected",
  "ConnectionLost",
  "Ended",
  "DeepHeartbeatSuccess",
  "DeepHeartbeatFailure",
];

export interface ConnectionEvents {
  ConnectionGained: () => void;
  ConnectionLost: () => void;
  /** The server confirmed the `aws/chat` subscription: from now on it streams this socket every item. */
  Subscribed: () => void;
  Ended: () => void;
  IncomingMessage: (item: Item) => void;
  DeepHeartbeatSuccess: () => void;
  DeepHeartbeatFailure: () => void;
}

/** The item chatjs synthesises when a reconnect is refused with 403 (docs/protocol.md §3.10). */
export const syntheticChatEnded = (): Item => ({
  AbsoluteTime: "",
  ContentType: ContentType.CHAT_ENDED,
  Id: "",
  InitialContactId: "",
  Type: ItemType.EVENT,
});

export class SharedConnection {
  status: ConnectionStatus = "NeverStarted";
  readonly events: Emitter<ConnectionEvents>;
  readonly #subscriptions: Unsubscribe[];

  readonly #logger: Logger;
  readonly #fetcher?: TransportFetcher;
  constructor(
    readonly manager: WebSocketManager,
    logger: Logger,
    /** Set when this helper owns its manager and must start it (customer connections). */
    fetcher?: TransportFetcher,
  ) {
    this.#logger = logger;
    this.#fetcher = fetcher;
    this.events = new Emitter(logger);
    manager.subscribeTopics([Topic.CHAT]);
    this.#subscriptions = [
      manager.onMessage(Topic.CHAT, (frame) => this.#handleFrame(frame)),
      manager.onConnectionGain(() => this.#setState("Connected")),
      manager.onConnectionLost(() => this.#setState("ConnectionLost")),
      manager.onSubscriptionUpdate((topics) => {
        if (topics.includes(Topic.CHAT)) this.events.emit("Subscribed");
      }),
      manager.onInitFailure(() => this.#setState("Ended")),
      manager.onDeepHeartbeatSuccess(() => this.#heartbeat("DeepHeartbeatSuccess")),
      manager.onDeepHeartbeatFailure(() => this.#heartbeat("DeepHeartbeatFailure")),
    ];
  }

  get ownsManager(): boolean {
    return this.#fetcher !== undefined;
  }

  start(): { websocketStatus: ConnectionStatus } {
    if (this.status === "NeverStarted") {
      this.#setState("Starting");
      if (this.#fetcher) void this.manager.init(this.#wrapFetcher(this.#fetcher));
    }
    return { websocketStatus: this.status };
  }

  end(): void {
    this.#subscriptions.forEach((unsubscribe) => unsubscribe());
    this.#setState("Ended");
    this.events.clear();
    if (this.ownsManager) {
      this.manager.closeWebSocket();
      this.manager.terminate();
    }
  }

  hasMessageSubscribers(): boolean {
    return this.events.count("IncomingMessage") > 0;
  }

  /** The one place the status changes: duplicates ignored, `old -> new` logged, one event emitted. */
  #setState(next: ConnectionStatus): void {
    const previous = this.status;
    if (previous === next) return;
    this.status = next;
    this.#logger.info(`Connection status ${previous} -> ${next}`);
    if (next === "Connected") this.events.emit("ConnectionGained");
    else if (next === "ConnectionLost") this.events.emit("ConnectionLost");
    else if (next === "Ended") this.events.emit("Ended");
  }

  /** Heartbeat results set their statuses and are always reported as events. */
  #heartbeat(result: "DeepHeartbeatSuccess" | "DeepHeartbeatFailure"): void {
    this.#setState(result);
    this.events.emit(result);
  }

  #handleFrame(frame: WebSocketEnvelope): void {
    let item: unknown;
    try {
      item = typeof frame.content === "string" ? JSON.parse(frame.content) : undefined;
    } catch {
      item = undefined;
    }
    if (!isItem(item)) {
      this.#logger.error("Wrong message format");
      return;
    }
    this.events.emit("IncomingMessage", item);
  }

  /** A reconnect refused with 403 after the connection was lost means the chat ended meanwhile. */
  #wrapFetcher(fetcher: TransportFetcher): TransportFetcher {
    return async () => {
      try {
        return await fetcher();
      } catch (error) {
        if (isRequestError(error) && error.statusCode === 403 && this.status === "ConnectionLost") {
          this.events.emit("IncomingMessage", syntheticChatEnded());
        }
        throw error;
      }
    };
  }
}

/** One session's view of a shared connection: only its contact's items, Ended once ended. */
export class ContactConnection {
  #ended = false;
  readonly events: Emitter<ConnectionEvents>;
  readonly #subscriptions: Unsubscribe[];

  readonly #contactId: string;
  readonly #initialContactId: string;
  readonly #release: (connection: ContactConnection) => void;
  constructor(
    readonly base: SharedConnection,
    contactId: string,
    initialContactId: string,
    release: (connection: ContactConnection) => void,
    logger: Logger,
  ) {
    this.#contactId = contactId;
    this.#initialContactId = initialContactId;
    this.#release = release;
    this.events = new Emitter(logger);
    type Signal = Exclude<keyof ConnectionEvents, "IncomingMessage">;
    const forward = (name: Signal) =>
      base.events.on(name, () => (this.events.emit as (n: Signal) => void)(name));
    this.#subscriptions = [
      forward("ConnectionGained"),
      forward("ConnectionLost"),
      forward("Subscribed"),
      forward("Ended"),
      forward("DeepHeartbeatSuccess"),
      forward("DeepHeartbeatFailure"),
      base.events.on("IncomingMessage", (item) => {
        if (this.#isForThisContact(item)) this.events.emit("IncomingMessage", item);
      }),
    ];
  }

  getStatus(): ConnectionStatus {
    return this.#ended ? "Ended" : this.base.status;
  }

  start(): { websocketStatus: ConnectionStatus } {
    return this.base.start();
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#subscriptions.forEach((unsubscribe) => unsubscribe());
    this.events.clear();
    this.#release(this);
  }

  /** Routing filter (docs/protocol.md §3.3). */
  #isForThisContact(item: Item): boolean {
    return (
      item.InitialContactId === this.#initialContactId ||
      item.ContactId === this.#contactId ||
      item.Type === ItemType.MESSAGE_METADATA ||
      // The synthetic chat-ended item carries no ids (docs/protocol.md §3.10).
      (item.Id === "" && item.ContentType === ContentType.CHAT_ENDED)
    );
  }
}

export interface ConnectionRequest {
  contactId: string;
  initialContactId: string;
  logger: Logger;
  /** A shared (agent) manager; when absent the helper creates its own for the contact. */
  websocketManager?: WebSocketManager;
  createManager: () => WebSocketManager;
  fetcher: TransportFetcher;
}

/** Where the shared helpers live: per contact for customers, one for agents. */
export class ConnectionRegistry {
  readonly customer = new Map<string, SharedConnection>();
  agent: SharedConnection | null = null;

  open(request: ConnectionRequest): ContactConnection {
    const { contactId, initialContactId, logger, websocketManager } = request;
    let base: SharedConnection;
    if (websocketManager) {
      if (this.agent && this.agent.manager !== websocketManager) {
        this.agent.end();
        this.agent = null;
      }
      base = this.agent ??= new SharedConnection(websocketManager, logger);
    } else {
      let existing = this.customer.get(contactId);
      if (!existing) {
        existing = new SharedConnection(request.createManager(), logger, request.fetcher);
        this.customer.set(contactId, existing);
      }
      base = existing;
    }
    return new ContactConnection(
      base,
      contactId,
      initialContactId,
      (c) => this.#release(c, contactId),
      logger,
    );
  }

  #release(connection: ContactConnection, contactId: string): void {
    const base = connection.base;
    if (
      base.ownsManager &&
      !base.hasMessageSubscribers() &&
      this.customer.get(contactId) === base
    ) {
      base.end();
      this.customer.delete(contactId);
    }
  }
}

export const defaultRegistry = new ConnectionRegistry();
