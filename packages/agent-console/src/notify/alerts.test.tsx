import type { QueuedContact } from "@chat-widget/protocol";
import { act, cleanup, fireEvent, render, renderHook, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newChatState, type ChatState } from "../state/chat-state.js";
import { chatInfo, customerMessage } from "../test-support/items.js";
import { AlertSettings } from "./AlertSettings.js";
import { useAlerts } from "./alerts.js";
import { useConsoleAlerts } from "./use-console-alerts.js";

/** jsdom has no Notification: a stand-in that records what would be shown. */
class FakeNotification {
  static permission: NotificationPermission = "default";
  static shown: { title: string; body?: string; tag?: string }[] = [];
  static requestPermission = vi.fn(async () => {
    FakeNotification.permission = "granted";
    return "granted" as NotificationPermission;
  });
  constructor(title: string, options: NotificationOptions = {}) {
    FakeNotification.shown.push({ title, body: options.body, tag: options.tag });
  }
}

beforeEach(() => {
  FakeNotification.permission = "default";
  FakeNotification.shown = [];
  localStorage.clear();
  vi.stubGlobal("Notification", FakeNotification);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const waiting = (id: string, name: string): QueuedContact => ({
  ContactId: id,
  Queue: "advisors",
  QueuedAt: "2026-01-16T09:00:00.000Z",
  CustomerName: name,
});

describe("alerts (issue 60)", () => {
  it("notifications are asked for from a click, once, and kept on in this browser", async () => {
    const { result } = renderHook(() => useAlerts());
    render(<AlertSettings alerts={result.current} />);
    expect(result.current.notifications).toBe("off");
    fireEvent.click(screen.getByRole("button", { name: "Notifications" }));
    await vi.waitFor(() => expect(result.current.notifications).toBe("on"));
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(renderHook(() => useAlerts()).result.current.notifications).toBe("on");
  });

  it("a visitor starting to wait and a new message in a chat not in view raise one each; the title counts both", async () => {
    FakeNotification.permission = "granted";
    localStorage.setItem("agent-console.notifications", "on");
    const alerts = renderHook(() => useAlerts()).result.current;
    let chat: ChatState = newChatState(chatInfo("c1"));
    const { rerender } = renderHook(
      ({ queue, chats }: { queue: QueuedContact[]; chats: ChatState[] }) =>
        useConsoleAlerts(queue, chats, alerts.alert),
      { initialProps: { queue: [waiting("q0", "Early")], chats: [chat] } },
    );
    expect(FakeNotification.shown).toEqual([]); // what was there at the start
    expect(document.title).toBe("(1) Agent console");
    rerender({ queue: [waiting("q0", "Early"), waiting("q1", "Ada")], chats: [chat] });
    expect(FakeNotification.shown).toEqual([
      { title: "A visitor is waiting", body: "Ada is waiting in the queue.", tag: "queue-q1" },
    ]);
    chat = { ...chat, unread: 1, items: [customerMessage("m1", "Are you there?")] };
    rerender({ queue: [waiting("q1", "Ada")], chats: [chat] });
    expect(FakeNotification.shown.at(-1)).toEqual({
      title: "New message from Alex Morgan",
      body: "Are you there?",
      tag: "chat-c1",
    });
    expect(document.title).toBe("(2) Agent console");
    rerender({ queue: [], chats: [{ ...chat, unread: 0 }] });
    expect(FakeNotification.shown).toHaveLength(2);
    expect(document.title).toBe("Agent console");
  });

  it("nothing is shown while notifications are off; sound is its own switch", () => {
    FakeNotification.permission = "granted";
    const { result } = renderHook(() => useAlerts());
    act(() => result.current.alert("t", "b", "x"));
    expect(FakeNotification.shown).toEqual([]);
    render(<AlertSettings alerts={result.current} />);
    fireEvent.click(screen.getByRole("button", { name: "Sound" }));
    expect(result.current.sound).toBe(true);
    expect(localStorage.getItem("agent-console.sound")).toBe("on");
  });
});
