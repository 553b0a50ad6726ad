import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RefreshIcon } from "./components/icons.js";
import { CHAT, jwtWith } from "./test-support/fakes.js";
import { advance, flush, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("click with no chat", () => {
  it("click with no chat: loading on, verify, start chat, order-number report, connect; then loading off, window visible, chat active", async () => {
    let releaseVerify: (ok: boolean) => void = () => {};
    const w = renderWidget({ jwt: jwtWith({ attributes: { orderNumber: 1234, gift: true } }) });
    w.gateway.verify.mockImplementation(() => new Promise<boolean>((r) => (releaseVerify = r)));
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(w.launcher());
    expect(screen.getByRole("status", { name: "Loading" })).toBeTruthy();
    expect(w.gateway.startChat).not.toHaveBeenCalled();
    await act(async () => releaseVerify(true));
    await flush();
    expect(w.gateway.startChat).toHaveBeenCalledTimes(1);
    expect(w.gateway.reportOrderNumber).toHaveBeenCalledWith(CHAT, {
      orderNumber: "1234",
      gift: "true",
    });
    expect(w.adapter.details).toEqual([CHAT]);
    expect(screen.queryByRole("status", { name: "Loading" })).toBeNull();
    expect(screen.getByRole("dialog")).toBeTruthy();
    expect(w.textbox().disabled).toBe(false);
    expect(w.textbox().placeholder).toBe("Type here...");
  });

  it("while a chat is loading, a loading indicator (rotating refresh icon) shows beside the button", async () => {
    const refreshIcon = render(<RefreshIcon />).container.innerHTML;
    cleanup();
    let releaseVerify: (ok: boolean) => void = () => {};
    const w = renderWidget();
    w.gateway.verify.mockImplementation(() => new Promise<boolean>((r) => (releaseVerify = r)));
    fireEvent.click(w.launcher());
    const indicator = screen.getByRole("status", { name: "Loading" });
    expect(indicator.previousElementSibling).toBe(w.launcher());
    const rotating = indicator.querySelector(".rotate");
    expect(rotating?.innerHTML).toBe(refreshIcon);
    await act(async () => releaseVerify(true));
    await flush();
    expect(screen.queryByRole("status", { name: "Loading" })).toBeNull();
  });

  it("the order-number report comes after start chat and before connect", async () => {
    const order: string[] = [];
    const w = renderWidget({ jwt: jwtWith({ attributes: { orderNumber: "A1" } }) });
    w.gateway.verify.mockImplementation(async () => (order.push("verify"), true));
    w.gateway.startChat.mockImplementation(async () => (order.push("start"), CHAT));
    w.gateway.reportOrderNumber.mockImplementation(async () => (order.push("report"), true));
    const connect = w.adapter.connect.bind(w.adapter);
    w.adapter.connect = async (d, h) => (order.push("connect"), connect(d, h));
    await w.open();
    expect(order).toEqual(["verify", "start", "report", "connect"]);
  });

  it("a jwt whose payload is not valid base64 and JSON is logged and no order report is made", async () => {
    const w = renderWidget({ jwt: "header.%%%not-base64%%%.sig" });
    await w.open();
    expect(w.logger.error).toHaveBeenCalled();
    expect(w.gateway.reportOrderNumber).not.toHaveBeenCalled();
    expect(screen.getByRole("dialog")).toBeTruthy();
  });
});

describe("any failure", () => {
  const failures: [string, (w: ReturnType<typeof renderWidget>) => void][] = [
    ["verify not ok", (w) => w.gateway.verify.mockResolvedValue(false)],
    ["verify network error", (w) => w.gateway.verify.mockRejectedValue(new TypeError("network"))],
    ["start chat fails", (w) => w.gateway.startChat.mockRejectedValue(new Error("500"))],
    ["order-number report not ok", (w) => w.gateway.reportOrderNumber.mockResolvedValue(false)],
    ["connect fails", (w) => (w.adapter.fail = true)],
  ];
  for (const [name, arrange] of failures) {
    it(`any failure (${name}): visible, active and loading off; error on for 5 s, then the button returns`, async () => {
      const w = renderWidget({ jwt: jwtWith({ attributes: { orderNumber: "1" } }) });
      arrange(w);
      await w.open();
      expect(screen.getByRole("alert").textContent).toBe("Something went wrong. Try again later.");
      expect(screen.queryByRole("dialog")).toBeNull();
      expect(screen.queryByRole("button", { name: "Open chat" })).toBeNull();
      expect(screen.queryByRole("status", { name: "Loading" })).toBeNull();
      await advance(4999);
      expect(screen.getByRole("alert")).toBeTruthy();
      await advance(1);
      expect(screen.queryByRole("alert")).toBeNull();
      expect(w.launcher()).toBeTruthy();
    });
  }

  it("after a verify failure, the chat does not start", async () => {
    const w = renderWidget();
    w.gateway.verify.mockResolvedValue(false);
    await w.open();
    expect(w.gateway.startChat).not.toHaveBeenCalled();
    expect(w.adapter.details).toEqual([]);
  });
});

describe("floating button", () => {
  it("with a chat existing but hidden, a click reopens the window", async () => {
    const w = renderWidget();
    await w.open();
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(w.launcher());
    expect(screen.getByRole("dialog")).toBeTruthy();
    expect(w.gateway.startChat).toHaveBeenCalledTimes(1);
    expect(w.adapter.connections).toHaveLength(1);
  });
});
