/**
 * The process's own metrics for /metrics (issue 10): prom-client's default set — CPU, resident
 * memory, heap, event-loop lag, garbage collection, open handles, Node version. They describe
 * the process, so there is one registry per process, created on first use however many apps
 * (tests) the process builds.
 */
import { collectDefaultMetrics, Registry } from "prom-client";

let registry: Registry | null = null;

/** The process metrics in Prometheus text format (version 0.0.4), one line each, no blank lines. */
export async function processMetricsText(): Promise<string> {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return (await registry.metrics()).replace(/\n{2,}/g, "\n");
}
