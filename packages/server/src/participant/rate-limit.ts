import type { Clock } from "../clock.js";

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** A token bucket per key: `burst` requests at once, refilled at `perSecond`. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    private readonly burst: number,
    private readonly perSecond: number,
  ) {}

  /** Takes one token; false when the key has none left. */
  take(key: string): boolean {
    const now = this.clock.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    const refill = ((now - bucket.updatedAt) / 1000) * this.perSecond;
    bucket.tokens = Math.min(this.burst, bucket.tokens + Math.max(refill, 0));
    bucket.updatedAt = now;
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      return false;
    }
    bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.prune(now);
    return true;
  }

  /** Milliseconds until `key` has a token again (0 when it has one now). */
  waitMs(key: string): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return 0;
    const refill = ((this.clock.now() - bucket.updatedAt) / 1000) * this.perSecond;
    const tokens = Math.min(this.burst, bucket.tokens + Math.max(refill, 0));
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / this.perSecond) * 1000);
  }

  /** Forget buckets that are full again. */
  private prune(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.updatedAt) / 1000) * this.perSecond >= this.burst) {
        this.buckets.delete(key);
      }
    }
  }
}
