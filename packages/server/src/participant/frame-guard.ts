/**
 * What a websocket's client frames may cost a process (issue 57): `aws/ping` is the deep
 * heartbeat chatjs judges its connection by, so every ping is answered, from a probe of the
 * store cached for STORE_PROBE_TTL_MS (at most one query a second a process, however many
 * pings); every other frame (subscribe, heartbeat, anything malformed) takes a token from its
 * socket's bucket, FRAME_BURST at once then FRAMES_PER_SECOND, and beyond that is dropped
 * unanswered and counted (`chat_widget_refusals_total{kind="websocket_frame_throttled"}`).
 */
import type { Clock } from "../clock.js";
import type { Refusals } from "../http/refusals.js";
import { TokenBuckets } from "../limits/memory-limit-store.js";

/** How long one answer of the store probe stands for every ping. */
export const STORE_PROBE_TTL_MS = 1_000;
/** Frames other than pings one socket may send at once, then each second. */
export const FRAME_BURST = 20;
export const FRAMES_PER_SECOND = 5;
/** The most sockets whose frame buckets are kept (a full bucket needs no entry). */
const MAX_BUCKETS = 200_000;

/** The deep heartbeat's answer: whether the store answers, asked at most once a TTL. */
export class StoreProbe {
  private answer: { alive: boolean; at: number } | null = null;
  private asking: Promise<boolean> | null = null;

  constructor(
    private readonly ask: () => Promise<unknown>,
    private readonly clock: Clock,
  ) {}

  alive(): Promise<boolean> {
    const kept = this.answer;
    if (kept && this.clock.now() - kept.at < STORE_PROBE_TTL_MS) return Promise.resolve(kept.alive);
    this.asking ??= this.ask().then(
      () => this.keep(true),
      () => this.keep(false),
    );
    return this.asking;
  }

  private keep(alive: boolean): boolean {
    this.answer = { alive, at: this.clock.now() };
    this.asking = null;
    return alive;
  }
}

export class FrameGuard {
  readonly probe: StoreProbe;
  private readonly buckets = new TokenBuckets(
    { burst: FRAME_BURST, intervalMs: 1000 / FRAMES_PER_SECOND },
    MAX_BUCKETS,
  );

  constructor(
    askStore: () => Promise<unknown>,
    private readonly clock: Clock,
    private readonly refusals: Refusals,
  ) {
    this.probe = new StoreProbe(askStore, clock);
  }

  /** Whether socket `id` may have a frame answered now (counts it); a refusal is counted. */
  allow(id: string): boolean {
    const now = this.clock.now();
    if (this.buckets.waitMs(id, now) === 0) {
      this.buckets.take(id, now);
      return true;
    }
    this.refusals.count("websocket_frame_throttled");
    return false;
  }
}
