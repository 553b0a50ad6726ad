/**
 * Fan-out between server processes. In-process by default; Redis pub/sub when REDIS_URL is
 * set, so a visitor on one process and an advisor on another share one contact centre.
 * Publishing never waits for Redis: this process's subscribers hear at once, and what the
 * others missed while Redis was away they repair on `onResume`.
 * Messages are JSON-serialisable values. A process receives its own publications once, and
 * each handler hears whether another process published the message (`remote`).
 */
export interface FanOut {
  publish(channel: string, message: unknown): Promise<void>;
  /** Resolves once the fan-out's own service (Redis) answers; rejects when it does not. */
  probe(): Promise<void>;
  /** Resolves once the subscription is active; returns the unsubscribe function. */
  subscribe(channel: string, handler: FanOutHandler): Promise<() => Promise<void>>;
  /**
   * `listener` runs each time the fan-out was interrupted and its subscriptions are active again
   * (Redis restarted, its connection cut, or one of this process's publications failed): what
   * was published meanwhile may never have arrived, here or elsewhere. Returns the function
   * that stops it.
   */
  onResume(listener: () => void): () => void;
  close(): Promise<void>;
}

/** Hears a message of a channel; `remote` when another process published it. */
export type FanOutHandler = (message: unknown, remote: boolean) => void;
