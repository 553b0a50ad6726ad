/**
 * Connect once and end for good: fetch the connection details, open the contact's connection,
 * turn its events into session events, acknowledge (agents), refresh the connection token,
 * and break the connection when the session is over.
 */
import type { TransportFetcher } from "../websocket/types.js";
import { SessionTypes } from "./chat-details.js";
import type { ConnectionDetails, ConnectionDetailsProvider } from "./connection-details.js";
import { noActiveConnection } from "../core/errors.js";
import type { Delivery } from "./delivery.js";
import type { Outbox } from "./outbox.js";
import type { ConnectResult } from "./events.js";
import { toNetworkLinkStatus, type NetworkLinkStatus } from "./network-link.js";
import type { ConnectArgs } from "./requests.js";
import type { ControllerDeps, EmitEvent } from "./session-context.js";
import type { SessionState } from "./session-state.js";
import { TokenRefresher } from "./token-refresh.js";

export const CONNECT_FAILED_REASON =
  "Failed to fetch connectionDetails with createParticipantConnection";
export const DUPLICATE_CONNECT_WARNING =
  "Ignoring duplicate call to connect. Method can only be invoked once";

export class ConnectionLifecycle {
  #connectPromise: Promise<ConnectResult> | null = null;
  /** The network-link status until a connection is open (then the connection's status). */
  #link: NetworkLinkStatus = "NeverEstablished";
  readonly #refresher: TokenRefresher;

  readonly #deps: ControllerDeps;
  readonly #state: SessionState;
  readonly #provider: ConnectionDetailsProvider;
  readonly #delivery: Delivery;
  readonly #outbox: Outbox<unknown>;
  readonly #emit: EmitEvent;
  constructor(
    deps: ControllerDeps,
    state: SessionState,
    provider: ConnectionDetailsProvider,
    delivery: Delivery,
    outbox: Outbox<unknown>,
    emit: EmitEvent,
  ) {
    this.#deps = deps;
    this.#state = state;
    this.#provider = provider;
    this.#delivery = delivery;
    this.#outbox = outbox;
    this.#emit = emit;
    this.#refresher = new TokenRefresher(
      deps.env,
      deps.logger,
      async () => (await provider.fetchConnectionDetails()).connectionTokenExpiry,
    );
  }

  connect(args: ConnectArgs = {}): Promise<ConnectResult> {
    if (this.#connectPromise) {
      this.#deps.logger.warn(DUPLICATE_CONNECT_WARNING);
      return this.#connectPromise;
    }
    this.#link = "Establishing";
    this.#connectPromise = this.#doConnect(args.metadata ?? null);
    return this.#connectPromise;
  }

  get networkLinkStatus(): NetworkLinkStatus {
    const { connection } = this.#state;
    return connection ? toNetworkLinkStatus(connection.getStatus()) : this.#link;
  }

  /** Stop refreshing the token and end the connection. */
  breakConnection(): void {
    this.#refresher.stop();
    this.#delivery.stop();
    this.#outbox.close(() => noActiveConnection("sendMessage"));
    this.#state.connection?.end();
  }

  async #doConnect(metadata: unknown): Promise<ConnectResult> {
    let details: ConnectionDetails;
    try {
      details = await this.#provider.fetchConnectionDetails();
    } catch (error) {
      this.#link = "Broken";
      throw {
        _debug: { reason: CONNECT_FAILED_REASON, _debug: error },
        connectSuccess: false,
        connectCalled: true,
        metadata,
      };
    }
    const started = this.#openConnection(details);
    const result: ConnectResult = {
      _debug: started,
      connectSuccess: true,
      connectCalled: true,
      metadata,
    };
    this.#emit("connectionEstablished", result);
    if (this.#deps.sessionType === SessionTypes.AGENT && !details.connectionAcknowledged)
      this.#acknowledge();
    this.#refresher.start(details.connectionTokenExpiry);
    return result;
  }

  #openConnection(initial: ConnectionDetails) {
    const { chatDetails, logger, registry, websocketManager } = this.#deps;
    let first = true;
    const fetcher: TransportFetcher = async () => {
      const details =
        first && initial.url ? initial : await this.#provider.fetchParticipantConnection(false);
      first = false;
      return {
        webSocketTransport: {
          url: details.url ?? "",
          ...(details.expiry ? { expiry: details.expiry } : {}),
          transportLifeTimeInSeconds: details.transportLifeTimeInSeconds,
        },
      };
    };
    const connection = registry.open({
      contactId: chatDetails.contactId,
      initialContactId: chatDetails.initialContactId,
      logger,
      ...(websocketManager ? { websocketManager } : {}),
      createManager: this.#deps.createWebSocketManager,
      fetcher,
    });
    this.#state.connection = connection;
    connection.events.on("ConnectionGained", () => {
      this.#state.setState("active");
      this.#emit("connectionEstablished", {});
      this.#outbox.retryNow();
    });
    // Repair only once the server streams to this socket: an item committed before that is
    // in the transcript, one committed after arrives live (held behind the repair).
    connection.events.on("Subscribed", () => void this.#delivery.repair());
    connection.events.on("ConnectionLost", () => this.#emit("connectionLost", {}));
    connection.events.on("Ended", () => {
      this.#emit("connectionBroken", {});
      this.breakConnection();
    });
    connection.events.on("DeepHeartbeatSuccess", () => this.#emit("deepHeartbeatSuccess", {}));
    connection.events.on("DeepHeartbeatFailure", () => this.#emit("deepHeartbeatFailure", {}));
    connection.events.on("IncomingMessage", (item) => this.#delivery.receive(item));
    return connection.start();
  }

  #acknowledge(): void {
    if (!this.#deps.chatDetails.participantToken) {
      this.#deps.logger.warn("No participantToken: not acknowledging");
      return;
    }
    this.#provider.acknowledge().then(
      () => this.#emit("connectionAcknowledged", {}),
      (error: unknown) => this.#deps.logger.error("Acknowledge failed", error),
    );
  }
}
