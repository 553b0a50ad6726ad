import { afterEach, describe, expect, it, vi } from "vitest";
import type { PortLike } from "./worker-protocol.js";

type Scope = { onconnect?: ((event: { ports: readonly PortLike[] }) => void) | null };

describe("the SharedWorker script", () => {
  afterEach(() => {
    delete (globalThis as Scope).onconnect;
    vi.resetModules();
  });

  it("serves every connecting page's port with one telemetry host", async () => {
    await import("./worker-entry.js");
    const onconnect = (globalThis as Scope).onconnect;
    expect(onconnect).toBeTypeOf("function");
    const replies = await Promise.all(
      [1, 2].map(async () => {
        const { port1, port2 } = new MessageChannel();
        onconnect!({ ports: [port2] });
        const reply = new Promise<unknown>((resolve) => {
          port1.onmessage = (event) => resolve(event.data);
        });
        port1.postMessage({
          type: "CONFIG",
          portId: null,
          message: { namespace: "chat-widget", endpointUrl: null },
        });
        const data = await reply;
        port1.close();
        return data;
      }),
    );
    expect(replies).toEqual([
      { type: "CONFIG", portId: 1 },
      { type: "CONFIG", portId: 2 },
    ]);
  });
});
