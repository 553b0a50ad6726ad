/** Injected timers and clock (AGENTS.md): the defaults read the globals at call time. */
export type TimerHandle = unknown;

export interface Timers {
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  now(): number;
}

export const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

/** One named timer that restarts when started again. */
export class Countdown {
  private handle: TimerHandle | null = null;
  constructor(
    private readonly timers: Timers,
    private readonly ms: number,
    private readonly onElapsed: () => void,
  ) {}

  start(): void {
    this.stop();
    this.handle = this.timers.setTimeout(() => {
      this.handle = null;
      this.onElapsed();
    }, this.ms);
  }

  stop(): void {
    if (this.handle !== null) this.timers.clearTimeout(this.handle);
    this.handle = null;
  }
}
