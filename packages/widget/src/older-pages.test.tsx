/**
 * A restored chat shows its newest page of history; older pages load as the visitor scrolls to
 * the top of the log (issue 61). History brings no receipt, no echo and no unread count.
 */
import { ContentType } from "@chat-widget/protocol";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChatWidget } from "./ChatWidget.js";
import { EDGE_PX } from "./lazy-views/TranscriptWindow.js";
import { TRANSCRIPT_PREFETCH_MS } from "./state/constants.js";
import {
  CHAT,
  agentMessage,
  botMessage,
  customerMessage,
  event,
  listPicker,
  makeDeps,
} from "./test-support/fakes.js";
import { advance, flush } from "./test-support/render.js";
import { savedFiles } from "./test-support/saved-files.js";
import { scrollTo as scrollLog } from "./test-support/scroll.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const said = (n: number) => `Answer ${n}`;
const log = () => screen.getByRole("log");
/** The numbers of the advisor's messages the log holds, oldest first. */
const shown = () =>
  [...log().querySelectorAll(".message.agent .plain")].map((m) =>
    Number(m.textContent!.replace(/\D/g, "")),
  );

/** A stored chat whose server holds `count` of the advisor's messages, restored on load. */
async function restored(count: number, before: ReturnType<typeof agentMessage>[] = []) {
  const h = makeDeps();
  h.storage.value = { chat: CHAT, visible: true, handledUntil: "\uffff" };
  h.adapter.transcript = [
    ...before,
    ...Array.from({ length: count }, (_, i) => agentMessage(said(i + 1))),
  ];
  render(<ChatWidget deps={h.deps} />);
  await flush();
  return h;
}

/** The log scrolled to `top` of 10,000 px. */
async function scrollTo(top: number) {
  scrollLog(log(), top);
  await flush();
}

describe("older pages of a restored chat (issue 61)", () => {
  it("restores only the newest page; at the top of the log the page before it loads, once", async () => {
    const h = await restored(250);
    const connection = h.adapter.last;
    expect(connection.transcriptRequests).toHaveLength(1);
    expect(shown()).toEqual(Array.from({ length: 100 }, (_, i) => 151 + i));
    await scrollTo(EDGE_PX + 1);
    expect(connection.transcriptRequests).toHaveLength(1);
    await scrollTo(0);
    expect(connection.transcriptRequests).toHaveLength(2);
    expect(connection.transcriptRequests[1]).toEqual({
      maxResults: 100,
      scanDirection: "BACKWARD",
      sortOrder: "ASCENDING",
      nextToken: "page-1",
    });
    // Fifty of the older page come into the window above what showed; the rest on scrolling up.
    expect(shown()[0]).toBe(101);
    expect(shown().at(-1)).toBe(250);
    await scrollTo(0);
    expect(shown()[0]).toBe(51);
    await scrollTo(0);
    expect(shown()[0]).toBe(1);
    expect(connection.transcriptRequests).toHaveLength(3);
    // The oldest page had no token after it: nothing more is asked for.
    await scrollTo(0);
    await scrollTo(0);
    expect(connection.transcriptRequests).toHaveLength(3);
    expect(shown()[0]).toBe(1);
    expect(shown()).toHaveLength(150);
    // History: no receipt sent, nothing unread.
    expect(connection.events).toEqual([]);
    expect(connection.sent).toEqual([]);
  });

  it("a page asked for is asked for once while it loads", async () => {
    const h = await restored(250);
    const connection = h.adapter.last;
    let release = () => {};
    const getTranscript = connection.getTranscript.bind(connection);
    connection.getTranscript = async (request) => {
      if (request.nextToken) await new Promise<void>((done) => (release = done));
      return getTranscript(request);
    };
    await scrollTo(0);
    await scrollTo(0);
    fireEvent.keyDown(log(), { key: "Home" });
    await flush();
    release();
    await flush();
    expect(connection.transcriptRequests.filter((r) => r.nextToken)).toHaveLength(1);
    expect(shown()[0]).toBe(101);
  });

  it("Home on the log asks for the page before the oldest shown", async () => {
    const h = await restored(150);
    fireEvent.keyDown(log(), { key: "Home" });
    await flush();
    expect(h.adapter.last.transcriptRequests[1]?.nextToken).toBe("page-1");
    expect(shown()[0]).toBe(1);
  });

  it("an older page changes nothing but the history: its bot echo stays hidden, the composer as it was", async () => {
    const h = await restored(100, [botMessage("menu"), customerMessage("menu")]);
    const composer = screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
    const enabled = !composer.disabled;
    await scrollTo(0);
    expect(h.adapter.last.transcriptRequests).toHaveLength(2);
    expect(screen.queryByText("menu")).toBeNull();
    expect(!composer.disabled).toBe(enabled);
    expect(shown()[0]).toBe(1);
  });

  it("an older page bringing the bot's earlier choice leaves the keyboard on the log", async () => {
    await restored(100, [listPicker("How can we help?", ["Returns"])]);
    log().focus();
    await scrollTo(0);
    expect(screen.getByRole("button", { name: "Returns" })).toBeTruthy();
    expect(document.activeElement).toBe(log());
  });

  it("after a restore the older pages load in the background, ten in all; 'Download transcript' after the chat ends holds them", async () => {
    const files = savedFiles();
    const h = await restored(1_050);
    const connection = h.adapter.last;
    await advance(TRANSCRIPT_PREFETCH_MS - 1);
    expect(connection.transcriptRequests).toHaveLength(1);
    await advance(1);
    expect(connection.transcriptRequests).toHaveLength(10);
    expect(connection.transcriptRequests.at(-1)?.nextToken).toBe("page-9");
    // The log still follows the newest; nothing is announced or unread.
    expect(shown().at(-1)).toBe(1_050);
    expect(log().getAttribute("aria-live")).toBe("polite");
    expect(connection.events).toEqual([]);
    act(() =>
      connection.handlers.onMessage(event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT" })),
    );
    await flush();
    fireEvent.click(screen.getByRole("button", { name: "Download transcript" }));
    const lines = (await files[0]!.blob.text()).trimEnd().split("\n");
    expect(lines).toHaveLength(1_001);
    expect(lines[0]).toMatch(/ Answer 51$/);
    expect(lines[999]).toMatch(/ Answer 1050$/);
  });

  it("a page read in the background leaves the window on what the visitor reads", async () => {
    const h = await restored(250);
    await scrollTo(0);
    expect(shown()[0]).toBe(101);
    await advance(TRANSCRIPT_PREFETCH_MS);
    expect(h.adapter.last.transcriptRequests).toHaveLength(3);
    expect(shown()[0]).toBe(101);
    expect(shown()).toHaveLength(150);
  });

  it("a background read that fails stops there; the visitor's scroll asks again", async () => {
    const h = await restored(250);
    const connection = h.adapter.last;
    const getTranscript = connection.getTranscript.bind(connection);
    let fail = true;
    let failed = 0;
    connection.getTranscript = (request) =>
      fail && request.nextToken
        ? Promise.reject(new Error(`cut ${++failed}`))
        : getTranscript(request);
    await advance(TRANSCRIPT_PREFETCH_MS * 10);
    expect(failed).toBe(1);
    fail = false;
    await scrollTo(0);
    expect(connection.transcriptRequests).toHaveLength(2);
    expect(shown()[0]).toBe(101);
  });

  it("a repair after a reconnect reads back only to an item it has", async () => {
    const h = await restored(250);
    const connection = h.adapter.last;
    h.adapter.transcript.push(agentMessage(said(251)));
    act(() => connection.handlers.onConnectionEstablished());
    await flush();
    expect(connection.transcriptRequests).toHaveLength(2);
    expect(connection.transcriptRequests[1]?.nextToken).toBeUndefined();
    expect(shown().at(-1)).toBe(251);
  });
});
