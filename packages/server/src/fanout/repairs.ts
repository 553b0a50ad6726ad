/**
 * The fan-out's interruptions and what they cost, counted per process for /metrics (issue 58):
 * how often Redis went away under this process, and how many items its sockets had to be given
 * from the store because the fan-out had not brought them.
 */
import type { Family } from "../telemetry/prometheus.js";

export const INTERRUPTIONS_FAMILY = "chat_widget_fanout_interruptions_total";
export const REPAIRED_FAMILY = "chat_widget_fanout_repaired_items_total";

export class FanOutRepairs {
  private interruptions = 0;
  private repairedItems = 0;

  interrupted(): void {
    this.interruptions += 1;
  }

  repaired(count: number): void {
    this.repairedItems += count;
  }

  families(): Family[] {
    const counter = (name: string, help: string, value: number): Family => ({
      name,
      help,
      type: "counter",
      samples: [{ name, labels: [], value }],
    });
    return [
      counter(
        INTERRUPTIONS_FAMILY,
        "Times this process's fan-out (Redis) was interrupted and resumed, or told that another process's publications failed.",
        this.interruptions,
      ),
      counter(
        REPAIRED_FAMILY,
        "Items this process's websockets were given from the store because the fan-out had not brought them.",
        this.repairedItems,
      ),
    ];
  }
}
