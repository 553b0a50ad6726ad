import { describe, expect, it } from "vitest";
import { addSample, CHART_POINTS, parsePrometheus, polyline } from "./metrics.js";

const TEXT = `# HELP chat_widget_queue_waiting_contacts Contacts waiting.
# TYPE chat_widget_queue_waiting_contacts gauge
chat_widget_queue_waiting_contacts{queue="advisors"} 2
chat_widget_queue_waiting_contacts{queue="returns"} 1
chat_widget_queue_active_chats{queue="advisors"} 3
chat_widget_metric_count{metric="SendMessage",unit="Milliseconds"} 7
chat_widget_metric_count{metric="SendEvent",unit="Milliseconds"} 5
not a sample line
bad_value NaNx
`;

describe("the live metrics chart's data", () => {
  it("sums the samples of each metric from /metrics (Prometheus text)", () => {
    const sums = parsePrometheus(TEXT);
    expect(sums.get("chat_widget_queue_waiting_contacts")).toBe(3);
    expect(sums.get("chat_widget_queue_active_chats")).toBe(3);
    expect(sums.get("chat_widget_metric_count")).toBe(12);
    expect(sums.has("bad_value")).toBe(false);
  });

  it("keeps the last 30 points of each series", () => {
    let samples = {};
    for (let i = 0; i < CHART_POINTS + 5; i++)
      samples = addSample(samples, new Map([["chat_widget_queue_active_chats", i]]));
    const active = (samples as Record<string, number[]>).active!;
    expect(active).toHaveLength(30);
    expect(active[0]).toBe(5);
    expect(active.at(-1)).toBe(34);
  });

  it("draws values bottom-up across the box", () => {
    expect(polyline([0, 5, 10], 100, 50, 10)).toBe("0,50 50,25 100,0");
    expect(polyline([], 100, 50, 10)).toBe("");
    expect(polyline([5], 100, 50, 10)).toBe("0,25 100,25");
  });
});
