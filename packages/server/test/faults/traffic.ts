/**
 * Numbered messages in both directions and what became of them: each side writes
 * `<prefix>-<n>` on a timer (or in a burst) through the chat client's sendMessage, counts the
 * ones acknowledged (stored) and the ones that failed, and the report says, for the other
 * side, how many acknowledged messages were lost, delivered twice or out of order.
 */
import type { Item } from "@chat-widget/protocol";
import type { Recorder } from "../client/support/sessions.js";

export class Talker {
  readonly acked: { n: number; id: string }[] = [];
  readonly failed: { n: number; error: unknown }[] = [];
  private readonly sends: Promise<unknown>[] = [];
  private written = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly recorder: Recorder,
    readonly prefix: string,
  ) {}

  get count(): number {
    return this.written;
  }

  /** Write one message every `everyMs`. */
  start(everyMs = 200): void {
    this.timer = setInterval(() => this.write(), everyMs);
  }

  /** Write `count` messages at once, as fast as a person pressing Enter. */
  burst(count: number): void {
    for (let i = 0; i < count; i++) this.write();
  }

  /** Stop writing and wait (at most `ms`) until every message written was stored or failed. */
  async stop(ms: number): Promise<void> {
    clearInterval(this.timer);
    const deadline = new Promise((resolve) => setTimeout(resolve, ms));
    await Promise.race([Promise.allSettled(this.sends), deadline]);
  }

  private write(): void {
    const n = ++this.written;
    const sent = this.recorder.session
      .sendMessage({ message: `${this.prefix}-${n}`, contentType: "text/plain" })
      .then(
        (result) => this.acked.push({ n, id: result.data.Id }),
        (error: unknown) => this.failed.push({ n, error }),
      );
    this.sends.push(sent);
  }
}

const numbered = (prefix: string) => new RegExp(`^${prefix}-(\\d+)$`);

/** The sender's numbered messages among items, in the order given. */
export function numbers(prefix: string, items: readonly Item[]): number[] {
  const pattern = numbered(prefix);
  return items
    .filter((i) => i.Type === "MESSAGE" && pattern.test(i.Content ?? ""))
    .map((i) => Number(pattern.exec(i.Content ?? "")![1]));
}

export interface DeliveryReport {
  written: number;
  acked: number;
  failed: number;
  lost: number;
  twice: number;
  outOfOrder: number;
}

/** What `receiver`'s onMessage made of `sender`'s acknowledged messages. */
export function deliveryReport(sender: Talker, receiver: Recorder): DeliveryReport {
  const pattern = numbered(sender.prefix);
  const got = receiver.items().filter((i) => i.Type === "MESSAGE" && pattern.test(i.Content ?? ""));
  const ids = got.map((i) => i.Id);
  const seq = numbers(sender.prefix, got);
  const received = new Set(ids);
  return {
    written: sender.count,
    acked: sender.acked.length,
    failed: sender.failed.length,
    lost: sender.acked.filter((a) => !received.has(a.id)).length,
    twice: ids.length - received.size,
    outOfOrder: seq.filter((n, i) => i > 0 && n < seq[i - 1]!).length,
  };
}

/** Every item of the contact's stored transcript, oldest first, through every page. */
export async function storedTranscript(recorder: Recorder): Promise<Item[]> {
  const items: Item[] = [];
  let nextToken: string | undefined;
  do {
    const page = await recorder.session.getTranscript({
      maxResults: 100,
      scanDirection: "FORWARD",
      sortOrder: "ASCENDING",
      ...(nextToken ? { nextToken } : {}),
    });
    items.push(...(page.data.Transcript ?? []));
    nextToken = page.data.NextToken;
  } while (nextToken);
  return items;
}
