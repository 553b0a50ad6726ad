/**
 * Issue 24, keyboard and screen readers: opening moves focus into the window, Escape minimises,
 * focus returns to the launcher, the transcript can be focused and is named.
 */
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { agentMessage, botMessage, listPicker } from "./test-support/fakes.js";
import { advance, flush, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const focused = () => document.activeElement as HTMLElement | null;

describe("keyboard and focus (issue 24)", () => {
  it("the launcher does not take focus when the page loads", () => {
    const w = renderWidget();
    expect(w.launcher()).toBeTruthy();
    expect(focused()).toBe(document.body);
  });

  it("opening moves focus to the first option while the bot waits for a choice", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("menu"));
    await w.receive(listPicker("How can we help?", ["Order status", "Returns"]));
    expect(focused()).toBe(screen.getByRole("button", { name: "Order status" }));
  });

  it("with an advisor, opening (again) moves focus to the composer", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("Hello"));
    expect(focused()).toBe(w.textbox());
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    fireEvent.click(w.launcher());
    await flush();
    expect(focused()).toBe(w.textbox());
  });

  it("Escape minimises the window, keeps the chat, and focus returns to the launcher", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("Hello"));
    fireEvent.keyDown(w.textbox(), { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(w.adapter.last.disconnects).toBe(0);
    expect(focused()).toBe(w.launcher());
  });

  it("minimise and close return focus to the launcher", async () => {
    const w = renderWidget();
    await w.open();
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    expect(focused()).toBe(w.launcher());
    fireEvent.click(w.launcher());
    await flush();
    w.end();
    await act(async () => {});
    await flush();
    expect(focused()).toBe(w.launcher());
  });

  it("the transcript is a named, focusable log", async () => {
    const w = renderWidget();
    await w.open();
    const log = screen.getByRole("log", { name: "Chat messages" });
    expect(log.tabIndex).toBe(0);
    expect(log.getAttribute("aria-live")).toBe("polite");
  });

  it("while minimised the launcher shows the unread count, in a badge and in its name; opening clears it", async () => {
    const w = renderWidget();
    await w.open();
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    await w.receive(agentMessage("Are you still there?"));
    expect(w.launcher().getAttribute("aria-label")).toBe("Open chat, 1 unread message");
    expect(w.launcher().querySelector(".badge")?.textContent).toBe("1");
    await w.receive(agentMessage("I can help with that."));
    expect(w.launcher().getAttribute("aria-label")).toBe("Open chat, 2 unread messages");
    expect(w.launcher().querySelector(".badge")?.getAttribute("aria-hidden")).toBe("true");
    fireEvent.click(w.launcher());
    await flush();
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    expect(w.launcher().getAttribute("aria-label")).toBe("Open chat");
    expect(w.launcher().querySelector(".badge")).toBeNull();
  });

  it("when the error notice's 5 s are over, focus returns to the launcher", async () => {
    const w = renderWidget();
    w.gateway.verify.mockResolvedValue(false);
    await w.open();
    expect(screen.getByRole("alert")).toBeTruthy();
    await advance(5_000);
    expect(focused()).toBe(w.launcher());
  });
});
