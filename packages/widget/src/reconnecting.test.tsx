import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { en } from "./texts.js";
import { flush, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const notice = () => screen.queryByText(en.RECONNECTING);

describe("while the connection is down (issue 9)", () => {
  it("the window says it is reconnecting and that messages will go when it is back; the composer stays usable; the notice goes when the connection is back", async () => {
    const w = renderWidget();
    await w.open();
    expect(notice()).toBeNull();
    act(() => w.adapter.last.handlers.onConnectionLost());
    expect(notice()?.getAttribute("role")).toBe("status");
    expect(w.textbox().disabled).toBe(false);
    fireEvent.change(w.textbox(), { target: { value: "still there?" } });
    fireEvent.keyDown(w.textbox(), { key: "Enter" });
    await flush();
    expect(w.adapter.last.sent.map((m) => m.content)).toEqual(["still there?"]);
    act(() => w.adapter.last.handlers.onConnectionEstablished());
    await flush();
    expect(notice()).toBeNull();
  });

  it("the browser going offline shows the notice at once, before the socket notices; back online it goes", async () => {
    const w = renderWidget();
    await w.open();
    const setOnline = (onLine: boolean) =>
      act(() => {
        Object.defineProperty(navigator, "onLine", { configurable: true, get: () => onLine });
        window.dispatchEvent(new Event(onLine ? "online" : "offline"));
      });
    try {
      setOnline(false);
      expect(notice()?.getAttribute("role")).toBe("status");
      setOnline(true);
      expect(notice()).toBeNull();
    } finally {
      setOnline(true);
    }
  });

  it("a broken connection (the chat is over) shows no reconnecting notice", async () => {
    const w = renderWidget();
    await w.open();
    act(() => w.adapter.last.handlers.onConnectionLost());
    act(() => w.adapter.last.handlers.onConnectionBroken());
    await flush();
    expect(notice()).toBeNull();
  });
});
