/**
 * Runs `sweep` every `everyMs` (the timer does not keep the process alive) until the returned
 * stop is called, which waits for a sweep under way. A tick that finds the last sweep still under
 * way is skipped, so a slow store never piles sweeps up behind one another. A failed sweep goes
 * to `onError`; the next one runs as planned.
 */
export function startSweeper(
  everyMs: number,
  sweep: () => Promise<unknown>,
  onError: (err: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = sweep()
      .catch(onError)
      .finally(() => (running = null));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
