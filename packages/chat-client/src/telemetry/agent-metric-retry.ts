/**
 * Agent count metrics that arrive before telemetry is ready are retried every 3 s, up to
 * 5 times (docs/product.md §9); when telemetry is still not ready after the 5th retry they are dropped.
 */
import type { ClientEnv, TimerHandle } from "../env.js";

export const AGENT_METRIC_MAX_RETRIES = 5;
export const AGENT_METRIC_RETRY_INTERVAL_MS = 3_000;

export interface AgentCount {
  metricName: string;
  count: number;
}

export interface AgentMetricRetryOptions {
  timers: Pick<ClientEnv, "setTimeout" | "clearTimeout">;
  isReady(): boolean;
  publish(metric: AgentCount): void;
  onGiveUp(dropped: AgentCount[]): void;
}

export class AgentMetricRetry {
  private pending: AgentCount[] = [];
  private retries = 0;
  private timer: TimerHandle | null = null;

  constructor(private readonly options: AgentMetricRetryOptions) {}

  add(metric: AgentCount): void {
    if (this.options.isReady() && this.pending.length === 0) {
      this.options.publish(metric);
      return;
    }
    this.pending.push(metric);
    this.schedule();
  }

  cancel(): void {
    if (this.timer !== null) this.options.timers.clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
    this.retries = 0;
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = this.options.timers.setTimeout(() => this.retry(), AGENT_METRIC_RETRY_INTERVAL_MS);
  }

  private retry(): void {
    this.timer = null;
    this.retries += 1;
    if (this.options.isReady()) {
      const metrics = this.pending;
      this.pending = [];
      this.retries = 0;
      for (const metric of metrics) this.options.publish(metric);
    } else if (this.retries < AGENT_METRIC_MAX_RETRIES) {
      this.schedule();
    } else {
      const dropped = this.pending;
      this.pending = [];
      this.retries = 0;
      this.options.onGiveUp(dropped);
    }
  }
}
