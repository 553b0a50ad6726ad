/**
 * A long transcript in the console (issue 61) keeps a window of its entries in the DOM: a live
 * chat's and a past conversation's. Home and End on the log reach the oldest and the newest; at
 * the oldest entry, a live chat asks for the page before it. The window is a chunk of its own,
 * loaded the first time a transcript is long: meanwhile the log shows the newest 100 entries.
 */
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newChatState, withItems } from "../state/chat-state.js";
import { chatInfo, customerMessage } from "../test-support/items.js";
import { ConversationDialog } from "./ConversationDialog.js";
import { Transcript } from "./Transcript.js";

afterEach(cleanup);

const questions = (count: number, contactId = "c1") =>
  Array.from({ length: count }, (_, i) =>
    customerMessage(`m${i + 1}`, `Question ${i + 1}`, contactId),
  );
const log = () => screen.getByRole("log", { name: "Transcript" });
/** The numbers of the questions the log holds, oldest first. */
const shown = () =>
  [...log().querySelectorAll("li.message")].map((li) =>
    Number(/Question (\d+)/.exec(li.textContent ?? "")![1]),
  );
const key = (name: "Home" | "End") => act(() => void fireEvent.keyDown(log(), { key: name }));
/** The window's chunk has arrived (the lazy import, the same module) and rendered. */
const windowArrived = () =>
  act(async () => {
    await import("@chat-widget/widget/transcript-window");
  });

describe("a long transcript in the console (issue 61)", () => {
  it("a live chat of 1,000 messages shows its newest 100 until the window arrives, then holds at most 150; Home shows the oldest, End the newest", async () => {
    const chat = withItems(newChatState(chatInfo()), questions(1_000), true, false);
    render(<Transcript chat={chat} download={() => {}} retry={() => {}} />);
    expect(shown()).toEqual(Array.from({ length: 100 }, (_, i) => 901 + i));
    expect(log().getAttribute("aria-busy")).toBe("true");
    await windowArrived();
    expect(log().getAttribute("aria-busy")).toBeNull();
    expect(shown()).toHaveLength(150);
    expect(shown().at(-1)).toBe(1_000);
    expect(log().getAttribute("aria-live")).toBe("polite");
    key("Home");
    expect(shown()[0]).toBe(1);
    expect(shown()).toHaveLength(150);
    // Reading older messages: entries coming into view are not announced.
    expect(log().getAttribute("aria-live")).toBe("off");
    key("End");
    expect(shown().at(-1)).toBe(1_000);
    expect(log().getAttribute("aria-live")).toBe("polite");
  });

  it("a short chat shows every message", () => {
    const chat = withItems(newChatState(chatInfo()), questions(120), true, false);
    render(<Transcript chat={chat} download={() => {}} retry={() => {}} />);
    expect(shown()).toHaveLength(120);
  });

  it("while the page before the oldest loads, the log is busy and says so above its messages", async () => {
    const chat = withItems(newChatState(chatInfo()), questions(100), true, false);
    const { rerender } = render(
      <Transcript chat={{ ...chat, loadingOlder: true }} download={() => {}} retry={() => {}} />,
    );
    expect(log().getAttribute("aria-busy")).toBe("true");
    expect(log().firstElementChild!.textContent).toBe("Loading earlier messages…");
    rerender(<Transcript chat={chat} download={() => {}} retry={() => {}} />);
    expect(log().getAttribute("aria-busy")).toBeNull();
    expect(screen.queryByText("Loading earlier messages…")).toBeNull();
  });

  it("with older pages to load, Home at the oldest message asks for the page before it", async () => {
    const onOlder = vi.fn();
    const chat = withItems(newChatState(chatInfo()), questions(100), true, false);
    render(<Transcript chat={chat} download={() => {}} retry={() => {}} onOlder={onOlder} />);
    await windowArrived();
    expect(shown()).toHaveLength(100);
    key("Home");
    expect(onOlder).toHaveBeenCalledTimes(1);
  });

  it("a past conversation of 2,000 items holds at most 150 of them; Home shows its first", async () => {
    const all = questions(2_000, "old-1");
    const transcript = vi.fn(async (_id: string, after = 0) => ({
      Items: all.slice(after, after + 500),
      ...(after + 500 < all.length ? { NextAfter: after + 500 } : {}),
    }));
    render(
      <ConversationDialog
        conversation={{ ContactId: "old-1" }}
        customerName="Ann"
        reads={{ transcript }}
        close={() => {}}
      />,
    );
    await screen.findByRole("log", { name: "Transcript" });
    await windowArrived();
    expect(transcript).toHaveBeenCalledTimes(4);
    expect(shown()).toHaveLength(150);
    expect(shown().at(-1)).toBe(2_000);
    key("Home");
    expect(shown()[0]).toBe(1);
  });
});
