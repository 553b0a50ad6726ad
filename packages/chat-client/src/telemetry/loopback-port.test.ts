import { describe, expect, it } from "vitest";
import { createLoopbackPorts } from "./loopback-port.js";

describe("loopback ports (the worker in the page)", () => {
  it("deliver synchronously, in posting order, never re-entrantly", () => {
    const [page, worker] = createLoopbackPorts();
    const log: string[] = [];
    worker.onmessage = ({ data }) => {
      log.push(`worker got ${String(data)}`);
      if (data === "CONFIG") {
        worker.postMessage("CONFIG-REPLY");
        log.push("worker replied");
      }
    };
    page.onmessage = ({ data }) => {
      log.push(`page got ${String(data)}`);
      page.postMessage("METRIC");
      log.push("page posted METRIC");
    };
    page.postMessage("CONFIG");
    expect(log).toEqual([
      "worker got CONFIG",
      "worker replied",
      "page got CONFIG-REPLY",
      "page posted METRIC",
      "worker got METRIC",
    ]);
  });

  it("a throwing handler does not stop later messages", () => {
    const [a, b] = createLoopbackPorts();
    const got: unknown[] = [];
    b.onmessage = ({ data }) => {
      got.push(data);
      if (data === 1) throw new Error("boom");
    };
    expect(() => a.postMessage(1)).not.toThrow();
    a.postMessage(2);
    expect(got).toEqual([1, 2]);
  });

  it("a closed port neither sends nor receives", () => {
    const [a, b] = createLoopbackPorts();
    const got: unknown[] = [];
    b.onmessage = ({ data }) => got.push(data);
    b.close?.();
    a.postMessage("x");
    b.postMessage("y");
    expect(got).toEqual([]);
  });
});
