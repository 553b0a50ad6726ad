import { ContentType } from "@chat-widget/protocol";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TITLE_FLASH_MS } from "./state/constants.js";
import { agentMessage, customerMessage, event, listPicker } from "./test-support/fakes.js";
import { advance, flush, renderWidget } from "./test-support/render.js";

beforeEach(() => {
  vi.useFakeTimers();
  document.title = "Demo shop";
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const minimise = () => fireEvent.click(screen.getByTitle("Minimise chat window"));

/** jsdom has no Web Audio: a stand-in that records the tones the chime starts. */
let tones: number[] = [];
class FakeAudioContext {
  state: AudioContextState = "running";
  currentTime = 0;
  destination = {};
  resume = () => Promise.resolve();
  createGain = () => ({
    gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
    connect: (next: unknown) => next,
  });
  createOscillator = () => {
    const tone = {
      frequency: { value: 0 },
      connect: (next: unknown) => next,
      start: () => tones.push(tone.frequency.value),
      stop() {},
    };
    return tone;
  };
}
beforeEach(() => {
  tones = [];
  vi.stubGlobal("AudioContext", FakeAudioContext);
});
afterEach(() => vi.unstubAllGlobals());

describe("unread sound (data-unread-sound, issue 24)", () => {
  it("chimes once for each message that arrives unread, the bot's choices too; never for the visitor's own, events, or while open", async () => {
    const chimes = () => tones.length / 2;
    const w = renderWidget({ deps: { unreadSound: true } });
    await w.open();
    await w.receive(agentMessage("Seen at once"));
    expect(chimes()).toBe(0);
    minimise();
    await w.receive(agentMessage("Are you still there?"));
    expect(tones).toEqual([880, 660]);
    await w.receive(customerMessage("typed elsewhere"));
    await w.receive(event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT" }));
    expect(chimes()).toBe(1);
    await w.receive(listPicker("Anything else?", ["Yes", "No"]));
    expect(chimes()).toBe(2);
    fireEvent.click(w.launcher());
    await flush();
    expect(chimes()).toBe(2);
  });
});

describe("the chime on a page that may not play sound yet", () => {
  /** A fresh chime module with a context that starts suspended; `allow()` lets it run. */
  async function suspendedChime() {
    let allow: () => void = () => {};
    class Suspended extends FakeAudioContext {
      override state: AudioContextState = "suspended";
      override resume = () => new Promise<void>((resolve) => (allow = resolve));
    }
    vi.stubGlobal("AudioContext", Suspended);
    vi.resetModules();
    const chime = await import("./lazy-views/chime.js");
    return { ...chime, allow: () => allow() };
  }

  it("sounds when leave comes within a second", async () => {
    const { playChime, allow, CHIME_WAIT_MS } = await suspendedChime();
    playChime();
    expect(tones).toEqual([]);
    await advance(CHIME_WAIT_MS);
    allow();
    await flush();
    expect(tones).toEqual([880, 660]);
  });

  it("is dropped when leave comes later (the visitor's first touch), never heard late", async () => {
    const { playChime, allow, CHIME_WAIT_MS } = await suspendedChime();
    playChime();
    playChime();
    await advance(CHIME_WAIT_MS + 1);
    allow();
    await flush();
    expect(tones).toEqual([]);
  });
});

describe("title flash (data-title-flash, issue 24)", () => {
  it("the page's title and the unread count take turns every second until the chat is opened", async () => {
    const w = renderWidget({ deps: { titleFlash: true } });
    await w.open();
    minimise();
    await advance(5 * TITLE_FLASH_MS);
    expect(document.title).toBe("Demo shop");
    await w.receive(agentMessage("Are you still there?"));
    expect(document.title).toBe("1 new message");
    await advance(TITLE_FLASH_MS - 1);
    expect(document.title).toBe("1 new message");
    await advance(1);
    expect(document.title).toBe("Demo shop");
    await w.receive(agentMessage("I can help with that."));
    expect(document.title).toBe("Demo shop");
    await advance(TITLE_FLASH_MS);
    expect(document.title).toBe("2 new messages");
    fireEvent.click(w.launcher());
    await flush();
    expect(document.title).toBe("Demo shop");
    await advance(5 * TITLE_FLASH_MS);
    expect(document.title).toBe("Demo shop");
  });

  it("a title the page sets meanwhile is the one that comes back", async () => {
    const w = renderWidget({ deps: { titleFlash: true } });
    await w.open();
    minimise();
    await w.receive(agentMessage("Are you still there?"));
    document.title = "Basket (2)";
    await advance(TITLE_FLASH_MS);
    expect(document.title).toBe("Basket (2)");
    await advance(TITLE_FLASH_MS);
    expect(document.title).toBe("1 new message");
    fireEvent.click(w.launcher());
    await flush();
    expect(document.title).toBe("Basket (2)");
  });

  it("off by default: the title never changes", async () => {
    const w = renderWidget();
    await w.open();
    minimise();
    await w.receive(agentMessage("Are you still there?"));
    await advance(3 * TITLE_FLASH_MS);
    expect(document.title).toBe("Demo shop");
    expect(w.launcher().getAttribute("aria-label")).toBe("Open chat, 1 unread message");
    expect(tones).toEqual([]);
  });
});
