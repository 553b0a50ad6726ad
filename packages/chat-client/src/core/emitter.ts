/** A typed callback map. Subscribing returns an unsubscribe; a throwing listener never stops the others. */
import type { Logger } from "../env.js";

export type Unsubscribe = () => void;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void;

export class Emitter<Events extends { [K in keyof Events]: Listener }> {
  readonly #listeners = new Map<keyof Events, Set<Listener>>();

  readonly #logger?: Logger;
  constructor(logger?: Logger) {
    this.#logger = logger;
  }

  on<K extends keyof Events>(name: K, cb: Events[K]): Unsubscribe {
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    set.add(cb);
    return () => void set.delete(cb);
  }

  emit<K extends keyof Events>(name: K, ...args: Parameters<Events[K]>): void {
    for (const cb of [...(this.#listeners.get(name) ?? [])]) {
      try {
        cb(...args);
      } catch (error) {
        this.#logger?.error(`Error in ${String(name)} listener`, error);
      }
    }
  }

  count<K extends keyof Events>(name: K): number {
    return this.#listeners.get(name)?.size ?? 0;
  }

  clear(): void {
    this.#listeners.clear();
  }
}
