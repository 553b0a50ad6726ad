import { ContentType, ItemType } from "@chat-widget/protocol";
import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  agentMessage,
  botMessage,
  customerMessage,
  event,
  item,
  systemMessage,
} from "./test-support/fakes.js";
import { styles } from "./styles.js";
import { advance, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const bubble = (text: string) => screen.getByText(text).closest(".message") as HTMLElement;

describe("transcript rendering", () => {
  it("agent messages and non-bot system messages of plain text or markdown appear as incoming", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("From the advisor"));
    await w.receive(systemMessage("From the flow", { ContentType: ContentType.TEXT_MARKDOWN }));
    expect(bubble("From the advisor").className).toBe("message incoming agent");
    expect(bubble("From the flow").className).toBe("message incoming");
  });

  it("plain text appears verbatim (line breaks kept); only markdown is rendered as markdown", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("5 * 3 * 2\n# 1 seller"));
    await w.receive(
      systemMessage("We are *really* sorry", { ContentType: ContentType.TEXT_MARKDOWN }),
    );
    const plain = screen.getByRole("log").querySelector(".message.agent .plain") as HTMLElement;
    expect(plain.textContent).toBe("5 * 3 * 2\n# 1 seller");
    expect(plain.querySelector("em, h3, strong")).toBeNull();
    expect(styles).toContain(".plain{white-space:pre-wrap}");
    const markdown = bubble("really").querySelector(".markdown") as HTMLElement;
    expect(markdown.querySelector("em")?.textContent).toBe("really");
    await w.receive(agentMessage('<img src=x onerror="window.pwned=1">'));
    expect(screen.getByRole("log").querySelector("img")).toBeNull();
  });

  it("customer text appears as outgoing", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(customerMessage("Where is my order?"));
    expect(bubble("Where is my order?").className).toBe("message outgoing");
  });

  it("a bot plain or markdown system message is not shown", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("Welcome"));
    expect(screen.queryByText("Welcome")).toBeNull();
  });

  it("participant joined shows '{display name or Advisor} has joined the chat'", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(
      event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT", DisplayName: "Sam" }),
    );
    await w.receive(event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT" }));
    expect(screen.getByText("Sam has joined the chat")).toBeTruthy();
    expect(screen.getByText("Advisor has joined the chat")).toBeTruthy();
  });

  it("no join or leave lines about the visitor or the bot: only advisors' (issue 24)", async () => {
    const w = renderWidget();
    await w.open();
    for (const type of [ContentType.PARTICIPANT_JOINED, ContentType.PARTICIPANT_LEFT]) {
      await w.receive(event(type, { ParticipantRole: "CUSTOMER", DisplayName: "Customer" }));
      await w.receive(event(type, { ParticipantRole: "SYSTEM", DisplayName: "Shop assistant" }));
    }
    await w.receive(
      event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT", DisplayName: "Sam" }),
    );
    expect(screen.queryByText(/Customer has|Shop assistant has/)).toBeNull();
    expect(screen.getByText("Sam has joined the chat")).toBeTruthy();
  });

  it("a message shows the time it was sent, as <time datetime> (issue 24)", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("On its way", { AbsoluteTime: "2026-11-25T10:05:00.000Z" }));
    const time = document.querySelector("time.time.incoming");
    expect(time?.getAttribute("datetime")).toBe("2026-11-25T10:05:00.000Z");
    expect(time?.textContent).toMatch(/\d{1,2}[:.]\d{2}/);
  });

  it("messages are laid out in their own direction: the text has dir=auto, not an advisor's bubble, whose name comes first (issues 24, 58)", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("مرحبا، كيف يمكنني مساعدتك؟"));
    const text = screen.getByText("مرحبا، كيف يمكنني مساعدتك؟");
    const directed = text.closest("[dir]");
    expect(directed?.getAttribute("dir")).toBe("auto");
    expect(directed?.classList.contains("message")).toBe(false);
    expect(text.closest(".message")?.hasAttribute("dir")).toBe(false);
  });

  it("participant left shows '{display name or Advisor} has left the chat'", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(
      event(ContentType.PARTICIPANT_LEFT, { ParticipantRole: "AGENT", DisplayName: "Sam" }),
    );
    await w.receive(
      event(ContentType.PARTICIPANT_LEFT, { ParticipantRole: "AGENT", DisplayName: "" }),
    );
    expect(screen.getByText("Sam has left the chat")).toBeTruthy();
    expect(screen.getByText("Advisor has left the chat")).toBeTruthy();
  });

  it("a transfer shows 'You are being transferred to another advisor' between the leave and join lines (issue 60)", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(
      event(ContentType.TRANSFER_SUCCEEDED, { ParticipantRole: "AGENT", DisplayName: "Sam" }),
    );
    await w.receive(
      event(ContentType.PARTICIPANT_LEFT, { ParticipantRole: "AGENT", DisplayName: "Sam" }),
    );
    await w.receive(
      event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT", DisplayName: "Kim" }),
    );
    const lines = [...document.querySelectorAll(".event")].map((e) => e.textContent);
    expect(lines).toEqual([
      "You are being transferred to another advisor",
      "Sam has left the chat",
      "Kim has joined the chat",
    ]);
  });

  it("chat ended shows 'Chat has ended!'", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(event(ContentType.CHAT_ENDED, { Id: "" }));
    await w.receive(event(ContentType.CHAT_ENDED, { Id: "" }));
    expect(screen.getAllByText("Chat has ended!")).toHaveLength(1);
  });

  it("an agent message without a display name is labelled Advisor", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("Hi", { DisplayName: undefined }));
    expect(bubble("Hi").querySelector(".name")?.textContent).toBe("Advisor");
  });

  it("each message once: an item delivered twice (websocket and transcript) is shown once", async () => {
    const w = renderWidget();
    await w.open();
    const m = agentMessage("Only once");
    await w.receive(m);
    await w.receive({ ...m });
    w.adapter.last.transcript = [m];
    w.adapter.last.handlers.onConnectionEstablished();
    await advance(0);
    expect(screen.getAllByText("Only once")).toHaveLength(1);
  });

  it("typing and receipt items are not shown", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(event(ContentType.TYPING, { ParticipantRole: "AGENT" }));
    await w.receive(
      item({ Type: ItemType.MESSAGE_METADATA, ContentType: ContentType.MESSAGE_METADATA }),
    );
    expect(screen.getByRole("log").children).toHaveLength(0);
  });
});

describe("scrolling", () => {
  it("the transcript scrolls to the bottom on new messages or agent events", async () => {
    const w = renderWidget();
    await w.open();
    const log = screen.getByRole("log");
    let height = 500;
    Object.defineProperty(log, "scrollHeight", { configurable: true, get: () => height });
    await w.receive(agentMessage("first"));
    expect(log.scrollTop).toBe(500);
    height = 800;
    await w.typing(event(ContentType.TYPING, { ParticipantRole: "AGENT" }));
    expect(log.scrollTop).toBe(800);
  });
});

describe("delivered receipts", () => {
  it("a delivered-receipt event carrying the messageId is sent for every incoming message of type MESSAGE", async () => {
    const w = renderWidget();
    await w.open();
    const a = agentMessage("one");
    const b = systemMessage("two");
    await w.receive(a);
    await w.receive(b);
    await w.receive(customerMessage("mine"));
    await w.receive(event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT" }));
    const receipts = w.adapter.last.events.filter(
      (e) => e.contentType === ContentType.DELIVERED_RECEIPT,
    );
    expect(receipts).toEqual([
      { contentType: ContentType.DELIVERED_RECEIPT, content: JSON.stringify({ messageId: a.Id }) },
      { contentType: ContentType.DELIVERED_RECEIPT, content: JSON.stringify({ messageId: b.Id }) },
    ]);
  });
});

describe("agent typing", () => {
  it("agent typing event: indicator shows for 3 s, then clears", async () => {
    const w = renderWidget();
    await w.open();
    await w.typing(event(ContentType.TYPING, { ParticipantRole: "AGENT" }));
    expect(screen.getByRole("status", { name: "Advisor is typing…" })).toBeTruthy();
    await advance(2999);
    expect(screen.getByRole("status", { name: "Advisor is typing…" })).toBeTruthy();
    await advance(1);
    expect(screen.queryByRole("status", { name: "Advisor is typing…" })).toBeNull();
  });

  it("the advisor's name beside the dots: 'Sam is typing…' (issue 24)", async () => {
    const w = renderWidget();
    await w.open();
    await w.typing(event(ContentType.TYPING, { ParticipantRole: "AGENT", DisplayName: "Sam" }));
    expect(screen.getByRole("status", { name: "Sam is typing…" })).toBeTruthy();
    expect(screen.getByText("Sam is typing…")).toBeTruthy();
  });

  it("a new typing event restarts the 3 s", async () => {
    const w = renderWidget();
    await w.open();
    await w.typing(event(ContentType.TYPING, { ParticipantRole: "AGENT" }));
    await advance(2000);
    await w.typing(event(ContentType.TYPING, { ParticipantRole: "AGENT" }));
    await advance(2999);
    expect(screen.getByRole("status", { name: "Advisor is typing…" })).toBeTruthy();
    await advance(1);
    expect(screen.queryByRole("status", { name: "Advisor is typing…" })).toBeNull();
  });

  it("any incoming message clears the typing indicator", async () => {
    const w = renderWidget();
    await w.open();
    await w.typing(event(ContentType.TYPING, { ParticipantRole: "AGENT" }));
    await advance(1000);
    await w.receive(agentMessage("Here I am"));
    expect(screen.queryByRole("status", { name: "Advisor is typing…" })).toBeNull();
  });

  it("the customer's own typing events show no indicator", async () => {
    const w = renderWidget();
    await w.open();
    await w.typing(event(ContentType.TYPING, { ParticipantRole: "CUSTOMER" }));
    expect(screen.queryByRole("status", { name: "Typing" })).toBeNull();
  });
});
