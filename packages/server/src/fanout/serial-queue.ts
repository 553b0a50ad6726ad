/**
 * Work run one piece after another, in the order it was queued: a fan-out handler's reads and
 * writes then reach its sockets in the order of the messages, whatever each read takes.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();
  /** Work queued and not yet finished. */
  private queued = 0;

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Queue work behind everything queued before; resolves once it has run (a failure is reported). */
  run(work: () => Promise<void>): Promise<void> {
    this.queued += 1;
    const done = this.tail.then(work).catch((error: unknown) => this.onError(error));
    // An onError that throws must not stop the work after it.
    this.tail = done
      .catch(() => {})
      .then(() => {
        this.queued -= 1;
      });
    return done;
  }

  /** Nothing is queued: work done now comes after everything queued before it. */
  get empty(): boolean {
    return this.queued === 0;
  }

  /** Resolves once everything queued so far has run. */
  idle(): Promise<void> {
    return this.tail;
  }
}
