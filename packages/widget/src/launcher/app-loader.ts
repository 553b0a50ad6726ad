/**
 * Loading the app once a page (issue 61): its script's promise kept while it loads and after it
 * arrived; a failure — the script refused (offline, blocked), not there after `timeoutMs`, or
 * mounting it threw — gives null and forgets the try, so the next intent tries again.
 */
import type { Logger } from "../logger.js";
import type { AppMount } from "./element.js";

export const APP_LOAD_TIMEOUT_MS = 20_000;
export const APP_TIMED_OUT = "The chat took too long to load";

export function appLoader<App>(
  load: () => Promise<App | null>,
  mount: (app: App) => AppMount,
  logger: Logger,
  timeoutMs = APP_LOAD_TIMEOUT_MS,
): () => Promise<AppMount | null> {
  let loading: Promise<AppMount | null> | null = null;
  const attempt = async (): Promise<AppMount | null> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        logger.warn(APP_TIMED_OUT);
        resolve(null);
      }, timeoutMs);
    });
    try {
      const app = await Promise.race([load(), timedOut]);
      return app === null ? null : mount(app);
    } catch (error) {
      logger.error(error);
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
  return () => {
    loading ??= attempt().then((mounted) => {
      if (!mounted) loading = null;
      return mounted;
    });
    return loading;
  };
}
