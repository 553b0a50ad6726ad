import type { Clock } from "../../src/clock.js";

/** A clock the test moves by hand, to the millisecond. */
export class ManualClock implements Clock {
  constructor(private ms = Date.UTC(2026, 0, 15, 10, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
