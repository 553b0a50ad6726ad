/**
 * The manager's sockets, oldest first: `[primary]` or `[primary, secondary]` (docs/protocol.md §3.8).
 * A new socket opened while the primary is still open is the secondary; once it has confirmed
 * every topic the primary is closed and the secondary takes its place.
 */
import type { Connection } from "./connection.js";

export class SocketPair {
  #list: Connection[] = [];

  get primary(): Connection | undefined {
    return this.#list[0];
  }
  get secondary(): Connection | undefined {
    return this.#list[1];
  }

  add(connection: Connection): void {
    this.#list.push(connection);
  }

  remove(connection: Connection): void {
    this.#list = this.#list.filter((c) => c !== connection);
  }

  isSecondary(connection: Connection): boolean {
    return this.#list.indexOf(connection) > 0;
  }

  /** Sockets that opened and are still open, oldest first. */
  open(): Connection[] {
    return this.#list.filter((c) => c.opened && c.isOpen && !c.retired);
  }

  /** The socket to send on: the newest open one, preferring one whose heartbeat is answered. */
  active(): Connection | undefined {
    const open = this.open();
    return open.filter((c) => !c.stale).at(-1) ?? open.at(-1);
  }

  hasUsable(): boolean {
    return this.#list.some((c) => c.isUsable);
  }

  /** A socket is being opened and has not opened yet. */
  attemptInFlight(): boolean {
    return this.#list.some((c) => !c.opened);
  }

  /**
   * Sockets to give up before opening another: any that never opened, and the newer of two
   * open ones (a hand-over that stalled).
   */
  toReplace(): Connection[] {
    const unopened = this.#list.filter((c) => !c.opened);
    const opened = this.#list.filter((c) => c.opened);
    return opened.length >= 2 ? [...unopened, ...opened.slice(1)] : unopened;
  }

  /** The primary to close if this secondary has now confirmed all these topics. */
  handOverReady(connection: Connection, topics: Iterable<string>): Connection | undefined {
    const { primary, secondary } = this;
    if (!primary || secondary !== connection) return undefined;
    return connection.subscriptions.covers(topics) ? primary : undefined;
  }

  /** Forget every socket, returning them (to be retired). */
  clear(): Connection[] {
    const all = this.#list;
    this.#list = [];
    return all;
  }
}
