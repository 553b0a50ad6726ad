/**
 * Who may read `/metrics` (issue 10). Without METRICS_TOKEN, anyone (a developer's machine, or a
 * deployment that keeps the port private). With it: a scraper presenting it as a Bearer token,
 * or a signed-in advisor (the agent console's live chart sends the advisor's token).
 */
import { secretMatcher } from "../http/bearer.js";

export function metricsAccess(
  metricsToken: string | undefined,
  isAdvisorToken: (token: string) => Promise<boolean>,
): (token: string | undefined) => Promise<boolean> {
  if (metricsToken === undefined) return async () => true;
  const isMetricsToken = secretMatcher(metricsToken);
  return async (token) =>
    token !== undefined && (isMetricsToken(token) || (await isAdvisorToken(token)));
}
