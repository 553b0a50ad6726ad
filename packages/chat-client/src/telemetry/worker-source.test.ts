import { createContext, runInContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { fakeFetch } from "./test-support/fake-fetch.js";
import { bundleWorkerSource, renderGeneratedModule } from "./test-support/bundle-worker.js";
import { waitUntil } from "./test-support/message-pages.js";
import { TELEMETRY_WORKER_SOURCE } from "./worker-source.generated.js";

describe("the bundled SharedWorker script", () => {
  it("worker-source.generated.ts is worker-entry.ts bundled as it is now", async () => {
    const module = await renderGeneratedModule(await bundleWorkerSource());
    await expect(module).toMatchFileSnapshot("./worker-source.generated.ts");
  });

  it("runs on its own in a bare global scope and publishes real put-metrics bodies", async () => {
    const http = fakeFetch();
    const scope = createContext({ setInterval, clearInterval, fetch: http.fetch }) as {
      onconnect?: (event: { ports: MessagePort[] }) => void;
    };
    runInContext(TELEMETRY_WORKER_SOURCE, scope);
    expect(scope.onconnect).toBeTypeOf("function");
    const { port1, port2 } = new MessageChannel();
    scope.onconnect!({ ports: [port2] });
    const reply = new Promise((resolve) => (port1.onmessage = (e) => resolve(e.data)));
    port1.postMessage({
      type: "CONFIG",
      portId: null,
      message: { namespace: "chat-widget", endpointUrl: "http://h" },
    });
    expect(await reply).toEqual({ type: "CONFIG", portId: 1 });
    for (let i = 0; i < 30; i++) {
      port1.postMessage({
        type: "METRIC",
        portId: 1,
        message: {
          metricName: "M",
          unit: "Count",
          value: 1,
          timestamp: new Date(0).toISOString(),
          dimensions: [],
          optionalDimensions: [],
          namespace: "chat-widget",
        },
      });
    }
    await waitUntil(() => http.requests.length === 1);
    expect(http.requests[0]!.url).toBe("http://h/put-metrics");
    expect((http.requests[0]!.body as { metricList: unknown[] }).metricList).toHaveLength(30);
    port1.postMessage({ type: "CLOSE", portId: 1 });
    port1.close();
  });
});
