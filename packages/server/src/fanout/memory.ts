import type { FanOut, FanOutHandler as Handler } from "./fanout.js";

/** Local delivery to this process's subscribers; the Redis fan-out reuses it for its own messages. */
export class LocalBus {
  private readonly channels = new Map<string, Set<Handler>>();

  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  /** Delivers `message` to the channel's handlers; `remote` when another process published it. */
  deliver(channel: string, message: unknown, remote: boolean): void {
    for (const handler of [...(this.channels.get(channel) ?? [])]) {
      try {
        handler(message, remote);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** Adds a handler; returns true when it is the channel's first. */
  add(channel: string, handler: Handler): boolean {
    let set = this.channels.get(channel);
    const first = set === undefined;
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    set.add(handler);
    return first;
  }

  /** Removes a handler; returns true when the channel has none left. */
  remove(channel: string, handler: Handler): boolean {
    const set = this.channels.get(channel);
    if (!set) return false;
    set.delete(handler);
    if (set.size > 0) return false;
    this.channels.delete(channel);
    return true;
  }

  /** Every channel with a handler. */
  names(): string[] {
    return [...this.channels.keys()];
  }

  clear(): void {
    this.channels.clear();
  }
}

/** The default fan-out: one process, delivered synchronously in publish order. */
export function createMemoryFanOut(onError?: (error: unknown) => void): FanOut {
  const bus = new LocalBus(onError);
  return {
    async publish(channel, message) {
      bus.deliver(channel, message, false);
    },
    async subscribe(channel, handler) {
      bus.add(channel, handler);
      return async () => {
        bus.remove(channel, handler);
      };
    },
    probe: async () => {},
    // One process: nothing is ever interrupted.
    onResume: () => () => {},
    async close() {
      bus.clear();
    },
  };
}
