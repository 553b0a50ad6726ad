/**
 * Runs `sweep` every `everyMs` (the timer does not keep the process alive) until the returned
 * stop is called, which waits for a sweep under way. A failed sweep goes to `onError`; the
 * next one runs as planned.
 */
export function startSweeper(
  everyMs: number,
  sweep: () => Promise<unknown>,
  onError: (err: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = sweep().catch(onError);
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
