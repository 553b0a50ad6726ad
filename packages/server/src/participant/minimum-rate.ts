import { Errors } from "../errors.js";

/**
 * The slowest an upload body may arrive: after its first `graceMs`, on average at least
 * `bytesPerSecond` over the time spent waiting for it. A client trickling a few bytes would
 * otherwise hold one of the few upload slots (upload-slots.ts) until REQUEST_TIMEOUT_MS.
 */
export interface MinimumRate {
  bytesPerSecond: number;
  graceMs: number;
}

/** Every upload gets this long before its rate counts (a slow start, a phone waking its radio). */
export const UPLOAD_GRACE_MS = 10_000;

/**
 * The pieces of `body` as they come, or ValidationException once the next one is late: it must
 * arrive before the time waited so far reaches max(grace, bytes received / rate). Only the time
 * spent waiting on the client counts, not the time the store takes to write what it sent.
 */
export async function* atMinimumRate(
  body: AsyncIterator<Buffer>,
  rate: MinimumRate,
): AsyncGenerator<Buffer> {
  let received = 0;
  let waitedMs = 0;
  for (;;) {
    const budgetMs = Math.max(rate.graceMs, (received / rate.bytesPerSecond) * 1000) - waitedMs;
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), Math.max(0, budgetMs));
    });
    const next = await Promise.race([body.next(), late]);
    clearTimeout(timer);
    waitedMs += Date.now() - started;
    if (next === "late") {
      throw Errors.validation(
        `The upload was too slow: ${received} bytes in ${Math.round(waitedMs / 1000)} s; ` +
          `after the first ${rate.graceMs / 1000} s it must average at least ${rate.bytesPerSecond} bytes a second.`,
      );
    }
    if (next.done) return;
    received += next.value.length;
    yield next.value;
  }
}
