/**
 * Mobile browsers (protocol §3.9, §3.10 item 2): chatjs's user-agent check, and the errors a
 * mobile browser gives a request it dropped (a URL fetch failing so is retried, not fatal).
 */

const MOBILE_USER_AGENT = /Android|webOS|Mobi|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini/i;

export const isMobileUserAgent = (userAgent: string): boolean => MOBILE_USER_AGENT.test(userAgent);

/** `TypeError` "Failed to fetch" (Chrome) or "Load failed" (Safari), as a RequestError or raw. */
export function isMobileFetchFailure(error: unknown): boolean {
  const e = error as { type?: unknown; name?: unknown; message?: unknown } | null;
  return (
    (e?.type ?? e?.name) === "TypeError" &&
    (e?.message === "Failed to fetch" || e?.message === "Load failed")
  );
}
