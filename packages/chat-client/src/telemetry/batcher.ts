/**
 * Batching (docs/product.md §9, docs/protocol.md §8.3): metrics are kept per namespace and flushed when a list
 * reaches 30 or every 30 000 ms; workflow events are flushed at 30 or every 2 000 ms.
 * A metric with dedupeOptions is dropped when the last one with the same
 * namespace-metricName-unit-context key is younger than its dedupeIntervalMs.
 */
import type { WireMetric, WireWorkflowEvent } from "@chat-widget/protocol";
import type { ClientEnv, TimerHandle } from "../env.js";

export interface BatchSettings {
  maxMetricsSize: number;
  maxWorkflowEventsSize: number;
  putMetricsIntervalMs: number;
  putWorkflowEventsIntervalMs: number;
}

export const DEFAULT_BATCH_SETTINGS: Readonly<BatchSettings> = Object.freeze({
  maxMetricsSize: 30,
  maxWorkflowEventsSize: 30,
  putMetricsIntervalMs: 30_000,
  putWorkflowEventsIntervalMs: 2_000,
});

export interface BatchSinks {
  putMetrics(namespace: string, metrics: WireMetric[]): void;
  putWorkflowEvents(events: WireWorkflowEvent[]): void;
}

export type BatchTimers = Pick<ClientEnv, "setInterval" | "clearInterval">;

export class Batcher {
  private settings: BatchSettings = { ...DEFAULT_BATCH_SETTINGS };
  private readonly metricLists = new Map<string, WireMetric[]>();
  private readonly lastByDedupeKey = new Map<string, number>();
  private workflowEvents: WireWorkflowEvent[] = [];
  private timers: TimerHandle[] = [];

  constructor(
    private readonly env: BatchTimers,
    private readonly sinks: BatchSinks,
  ) {}

  get running(): boolean {
    return this.timers.length > 0;
  }

  /** Override some settings; takes effect for intervals at the next start. */
  configure(settings: Partial<BatchSettings> | undefined): void {
    for (const [key, value] of Object.entries(settings ?? {})) {
      if (typeof value === "number" && value > 0) this.settings[key as keyof BatchSettings] = value;
    }
  }

  /** Flush what is pending and start the interval timers (once). */
  start(): void {
    this.flush();
    if (this.running) return;
    this.timers = [
      this.env.setInterval(() => this.flushMetrics(), this.settings.putMetricsIntervalMs),
      this.env.setInterval(
        () => this.flushWorkflowEvents(),
        this.settings.putWorkflowEventsIntervalMs,
      ),
    ];
  }

  stop(): void {
    for (const t of this.timers) this.env.clearInterval(t);
    this.timers = [];
  }

  /** Queue a metric; false when dropped by dedupe. */
  addMetric(metric: WireMetric): boolean {
    if (this.isDuplicate(metric)) return false;
    this.lastByDedupeKey.set(dedupeKey(metric), Date.parse(metric.timestamp));
    const list = this.metricLists.get(metric.namespace) ?? [];
    list.push(metric);
    this.metricLists.set(metric.namespace, list);
    if (list.length >= this.settings.maxMetricsSize) this.flushNamespace(metric.namespace);
    return true;
  }

  addWorkflowEvent(event: WireWorkflowEvent): void {
    this.workflowEvents.push(event);
    if (this.workflowEvents.length >= this.settings.maxWorkflowEventsSize)
      this.flushWorkflowEvents();
  }

  flush(): void {
    this.flushMetrics();
    this.flushWorkflowEvents();
  }

  flushMetrics(): void {
    for (const namespace of [...this.metricLists.keys()]) this.flushNamespace(namespace);
  }

  flushWorkflowEvents(): void {
    if (this.workflowEvents.length === 0) return;
    const events = this.workflowEvents;
    this.workflowEvents = [];
    this.sinks.putWorkflowEvents(events);
  }

  private flushNamespace(namespace: string): void {
    const list = this.metricLists.get(namespace);
    this.metricLists.delete(namespace);
    if (list && list.length > 0) this.sinks.putMetrics(namespace, list);
  }

  private isDuplicate(metric: WireMetric): boolean {
    if (!metric.dedupeOptions) return false;
    const past = this.lastByDedupeKey.get(dedupeKey(metric));
    return (
      past !== undefined &&
      Date.parse(metric.timestamp) - past < metric.dedupeOptions.dedupeIntervalMs
    );
  }
}

function dedupeKey(m: WireMetric): string {
  return `${m.namespace}-${m.metricName}-${m.unit}-${m.dedupeOptions?.context ?? "global"}`;
}
