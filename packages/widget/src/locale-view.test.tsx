import { ContentType } from "@chat-widget/protocol";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { agentMessage, event } from "./test-support/fakes.js";
import { flush, renderWidget } from "./test-support/render.js";
import { en, type Texts } from "./texts.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const german: Texts = {
  ...en,
  LANG: "de",
  OPEN: "Chat öffnen",
  CLOSE: "Chatfenster schließen",
  CHAT_ENDED: "Der Chat ist beendet.",
  JOINED: "{name} ist dem Chat beigetreten",
  ADVISOR: "Berater",
};
const arabic: Texts = { ...en, LANG: "ar", DIR: "rtl", OPEN: "افتح المحادثة" };

describe("the visitor's language in the widget", () => {
  it("shows English at once, then the loaded table's words, with its lang on the widget", async () => {
    let resolve: (t: Texts) => void = () => {};
    const w = renderWidget({ deps: { loadTexts: () => new Promise((r) => (resolve = r)) } });
    expect(screen.getByRole("button", { name: "Open chat" })).toBeTruthy();
    await act(async () => resolve(german));
    expect(screen.getByRole("button", { name: "Chat öffnen" })).toBeTruthy();
    const root = w.view.container.querySelector(".cw")!;
    expect(root.getAttribute("lang")).toBe("de");
    expect(root.getAttribute("dir")).toBe("ltr");
  });

  it("writes times on messages in the widget's language: German 24-hour in an American English browser", async () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["en-US", "en"]);
    const at = new Date(2026, 10, 25, 15, 5).toISOString();
    const english = renderWidget();
    await english.open();
    await english.receive(agentMessage("Hello", { AbsoluteTime: at }));
    expect(english.view.container.querySelector("time")?.textContent).toMatch(/^03:05\s?PM$/);
    cleanup();
    const v = renderWidget({ deps: { loadTexts: async () => german } });
    await flush();
    fireEvent.click(screen.getByRole("button", { name: "Chat öffnen" }));
    await flush();
    await v.receive(agentMessage("Hallo", { AbsoluteTime: at }));
    expect(v.view.container.querySelector("time")?.textContent).toBe("15:05");
  });

  it("rewords what is already in the transcript: the join line with the advisor's name, Berater without one", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(
      event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT", DisplayName: "Sam" }),
    );
    await w.receive(
      event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT", DisplayName: "" }),
    );
    expect(screen.getByText("Sam has joined the chat")).toBeTruthy();
    expect(screen.getByText("Advisor has joined the chat")).toBeTruthy();
    cleanup();
    const v = renderWidget({ deps: { loadTexts: async () => german } });
    await flush();
    fireEvent.click(screen.getByRole("button", { name: "Chat öffnen" }));
    await flush();
    await v.receive(
      event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT", DisplayName: "Sam" }),
    );
    await v.receive(
      event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT", DisplayName: "" }),
    );
    await v.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT" }));
    expect(screen.getByText("Sam ist dem Chat beigetreten")).toBeTruthy();
    expect(screen.getByText("Berater ist dem Chat beigetreten")).toBeTruthy();
    expect(screen.getByText("Der Chat ist beendet.")).toBeTruthy();
    expect(screen.getByTitle("Chatfenster schließen")).toBeTruthy();
  });

  it("an Arabic table lays the widget out right to left", async () => {
    const w = renderWidget({ deps: { loadTexts: async () => arabic } });
    await flush();
    expect(screen.getByRole("button", { name: "افتح المحادثة" })).toBeTruthy();
    const root = w.view.container.querySelector(".cw")!;
    expect(root.getAttribute("dir")).toBe("rtl");
    expect(root.getAttribute("lang")).toBe("ar");
  });
});
