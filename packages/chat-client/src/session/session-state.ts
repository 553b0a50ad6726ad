/**
 * The session's one state, changed only by `setState` (which logs `old -> new`):
 * - active: the default, also before connect;
 * - chatEnded: a chat-ended item arrived; gaining a connection makes it active again (docs/product.md §4);
 * - disconnected: the participant left with disconnectParticipant — for good.
 * Beside it the session keeps its connection handle, set once by connect.
 */
import type { Logger } from "../env.js";
import type { ContactConnection } from "./connection-helper.js";

export type SessionPhase = "active" | "chatEnded" | "disconnected";

export class SessionState {
  connection: ContactConnection | null = null;
  #phase: SessionPhase = "active";

  readonly #logger: Logger;
  constructor(logger: Logger) {
    this.#logger = logger;
  }

  get current(): SessionPhase {
    return this.#phase;
  }

  get hasChatEnded(): boolean {
    return this.#phase === "chatEnded";
  }

  get participantDisconnected(): boolean {
    return this.#phase === "disconnected";
  }

  setState(next: SessionPhase): void {
    if (next === this.#phase || this.#phase === "disconnected") return;
    this.#logger.info(`Session ${this.#phase} -> ${next}`);
    this.#phase = next;
  }
}
