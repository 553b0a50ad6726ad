/**
 * Whether any advisor is signed in and Available, as a contact flow asks it at every chat's
 * start (issue 27: it was one statement in two of a chat's set-up). The store is asked at most
 * once every `maxAgeMs`, and askers meanwhile share that one question. A change made through
 * this process (a sign-in or sign-out, an availability set, an advisor disabled or enabled)
 * forgets the answer at once; one made through another process, or a sign-in that lapsed, is
 * seen within `maxAgeMs`.
 */
import type { Clock } from "../clock.js";

/** How long an answer is kept. */
export const AVAILABILITY_MAX_AGE_MS = 1000;

export class AvailabilityCache {
  private answer: { value: boolean; until: number } | null = null;
  private asking: Promise<boolean> | null = null;
  /** Counts `forget`s: an answer asked before one is not kept. */
  private generation = 0;

  constructor(
    private readonly ask: () => Promise<boolean>,
    private readonly clock: Clock,
    private readonly maxAgeMs = AVAILABILITY_MAX_AGE_MS,
  ) {}

  get(): Promise<boolean> {
    const now = this.clock.now();
    if (this.answer && now < this.answer.until) return Promise.resolve(this.answer.value);
    if (this.asking) return this.asking;
    const generation = this.generation;
    const asking: Promise<boolean> = this.ask().then(
      (value) => {
        if (generation === this.generation) this.answer = { value, until: now + this.maxAgeMs };
        if (this.asking === asking) this.asking = null;
        return value;
      },
      (error: unknown) => {
        if (this.asking === asking) this.asking = null;
        throw error;
      },
    );
    this.asking = asking;
    return asking;
  }

  /** An advisor's sign-in, availability or account changed: the next `get` asks the store. */
  forget(): void {
    this.generation++;
    this.answer = null;
    this.asking = null;
  }
}
