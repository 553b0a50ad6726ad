/**
 * Work run one piece after another, in the order it was queued: a fan-out handler's reads and
 * writes then reach its sockets in the order of the messages, whatever each read takes.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Queue work behind everything queued before; resolves once it has run (a failure is reported). */
  run(work: () => Promise<void>): Promise<void> {
    const done = this.tail.then(work).catch((error: unknown) => this.onError(error));
    this.tail = done.catch(() => {}); // an onError that throws must not stop the work after it
    return done;
  }

  /** Resolves once everything queued so far has run. */
  idle(): Promise<void> {
    return this.tail;
  }
}
