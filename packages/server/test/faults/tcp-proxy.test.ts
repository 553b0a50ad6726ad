/** The fault suite's TCP proxy: a stalled connection whose server closes is told once it flows. */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { startTcpProxy } from "./tcp-proxy.js";

describe("the fault suite's TCP proxy", () => {
  it("a black-holed connection whose server side closed ends once it flows again, and close() never hangs on it", async () => {
    const accepted: net.Socket[] = [];
    const upstream = net.createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const proxy = await startTcpProxy((upstream.address() as net.AddressInfo).port);
    const client = net.connect(proxy.port, "127.0.0.1");
    const ended = new Promise<void>((resolve) => client.once("end", () => resolve()));
    client.on("error", () => {});
    await new Promise<void>((resolve) => client.once("connect", () => resolve()));
    await expect.poll(() => accepted.length).toBe(1);
    await proxy.set("blackhole");
    accepted[0]!.destroy();
    let endedYet = false;
    void ended.then(() => (endedYet = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(endedYet).toBe(false);
    await proxy.set("pass");
    await ended;
    client.destroy();
    await proxy.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });
});
