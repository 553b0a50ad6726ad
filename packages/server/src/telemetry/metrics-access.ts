/**
 * Who may read `/metrics` (issue 10). Without METRICS_TOKEN, anyone (a developer's machine, or a
 * deployment that keeps the port private). With it: a scraper presenting it as a Bearer token,
 * or a signed-in advisor (the agent console's live chart sends the advisor's token).
 */
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (value: string) => createHash("sha256").update(value).digest();

export function metricsAccess(
  metricsToken: string | undefined,
  isAdvisorToken: (token: string) => Promise<boolean>,
): (authorization: string | undefined) => Promise<boolean> {
  if (metricsToken === undefined) return async () => true;
  const expected = digest(metricsToken);
  return async (authorization) => {
    const token = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
    if (!token) return false;
    // Compared as digests, in constant time, so neither length nor content leaks.
    return timingSafeEqual(digest(token), expected) || (await isAdvisorToken(token));
  };
}
