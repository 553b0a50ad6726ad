import { ContentType } from "@chat-widget/protocol";
import type { Item } from "@chat-widget/protocol";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { StrictMode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChatWidget } from "./ChatWidget.js";
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

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("navigation: the chat survives moving between pages and reloading", () => {
  it("the widget keeps the contact and participant token in session storage", async () => {
    const h = makeDeps();
    render(<ChatWidget deps={h.deps} />);
    fireEvent.click(screen.getByRole("button", { name: "Open chat" }));
    await flush();
    expect(h.storage.value).toEqual({ chat: CHAT, visible: true, handledUntil: "" });
  });

  it("under React's StrictMode (effects run twice) a stored chat is resumed: one live connection, the window shown", async () => {
    const h = makeDeps();
    h.storage.value = { chat: CHAT, visible: true };
    render(
      <StrictMode>
        <ChatWidget deps={h.deps} />
      </StrictMode>,
    );
    await flush();
    expect(h.adapter.connections.filter((c) => !c.disposed)).toHaveLength(1);
    expect(screen.getByRole("dialog")).toBeTruthy();
  });

  it("on load it reconnects and restores the transcript with getTranscript, without verify or start chat", async () => {
    const h = makeDeps();
    h.storage.value = { chat: CHAT, visible: true };
    h.adapter.transcript = [
      event(ContentType.PARTICIPANT_JOINED, {
        ParticipantRole: "CUSTOMER",
        DisplayName: "Customer",
      }),
      botMessage("menu"),
      customerMessage("menu"),
      listPicker("How can we help?", ["Returns"]),
      customerMessage("Returns"),
      agentMessage("Hello again"),
    ];
    render(<ChatWidget deps={h.deps} />);
    await flush();
    expect(h.gateway.verify).not.toHaveBeenCalled();
    expect(h.gateway.startChat).not.toHaveBeenCalled();
    expect(h.adapter.details).toEqual([CHAT]);
    expect(h.adapter.last.transcriptRequests[0]).toEqual({
      maxResults: 100,
      scanDirection: "BACKWARD",
      sortOrder: "ASCENDING",
    });
    expect(screen.getByRole("dialog")).toBeTruthy();
    // History is shown, without a line about the visitor's own joining (issue 24).
    expect(screen.queryByText("Customer has joined the chat")).toBeNull();
    expect(screen.getByText("Hello again")).toBeTruthy();
    expect(screen.queryByText("menu")).toBeNull(); // the bot echo stays hidden after a reload
    expect(
      screen.getAllByText("Returns").filter((e) => e.classList.contains("message")),
    ).toHaveLength(1);
    // History is not replayed as live traffic: nothing echoed, no receipts.
    expect(h.adapter.last.sent).toEqual([]);
    expect(h.adapter.last.events).toEqual([]);
    expect((screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement).disabled).toBe(
      false,
    );
  });

  it("a chat minimised before the reload comes back minimised; a click reopens it", async () => {
    const h = makeDeps();
    h.storage.value = { chat: CHAT, visible: false };
    render(<ChatWidget deps={h.deps} />);
    await flush();
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Open chat" }));
    expect(screen.getByRole("dialog")).toBeTruthy();
    expect(h.storage.value).toMatchObject({ chat: CHAT, visible: true });
  });

  it("a chat minimised with messages unread comes back with its badge (issue 61); opening it clears the count, stored too", async () => {
    const h = makeDeps();
    h.storage.value = { chat: CHAT, visible: false, unread: 2 };
    render(<ChatWidget deps={h.deps} />);
    await flush();
    const launcher = screen.getByRole("button", { name: "Open chat, 2 unread messages" });
    expect(launcher.querySelector(".badge")!.textContent).toBe("2");
    fireEvent.click(launcher);
    expect(screen.getByRole("dialog")).toBeTruthy();
    expect(h.storage.value).toMatchObject({ chat: CHAT, visible: true });
    expect(h.storage.value).not.toHaveProperty("unread");
  });

  it("a stored chat that cannot be reconnected is a failure: it is forgotten, the error notice shows for 5 s, then the button returns", async () => {
    const h = makeDeps();
    h.storage.value = { chat: CHAT, visible: false };
    h.adapter.fail = true;
    render(<ChatWidget deps={h.deps} />);
    await flush();
    expect(h.storage.value).toBeNull();
    expect(screen.getByRole("alert").textContent).toBe("Something went wrong. Try again later.");
    expect(screen.queryByRole("button", { name: "Open chat" })).toBeNull();
    await advance(4_999);
    expect(screen.getByRole("alert")).toBeTruthy();
    await advance(1);
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Open chat" }));
    await flush();
    expect(h.gateway.startChat).toHaveBeenCalledTimes(1);
  });

  it("a stored chat the contact centre cannot be reached for stays stored, unsent messages too, and is tried again on the backoff (1 s, 2 s…) until it resumes", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5); // no jitter
    const h = makeDeps();
    const stored = {
      chat: CHAT,
      visible: true,
      unsent: [{ clientToken: "t-1", content: "Written before the reload" }],
    };
    h.storage.value = stored;
    h.adapter.unreachable = 2;
    render(<ChatWidget deps={h.deps} />);
    await flush();
    expect(h.adapter.details).toHaveLength(1);
    expect(h.storage.value).toEqual(stored);
    expect(screen.queryByRole("alert")).toBeNull();
    await advance(999);
    expect(h.adapter.details).toHaveLength(1);
    await advance(1);
    expect(h.adapter.details).toHaveLength(2);
    expect(h.storage.value).toMatchObject({ chat: CHAT, unsent: stored.unsent });
    await advance(1_999);
    expect(h.adapter.details).toHaveLength(2);
    await advance(1);
    expect(h.adapter.details).toHaveLength(3);
    expect(screen.getByRole("dialog")).toBeTruthy();
    expect(h.adapter.last.sent.map((m) => m.content)).toEqual(["Written before the reload"]);
    expect(h.adapter.last.clientTokens).toEqual(["t-1"]);
    vi.mocked(Math.random).mockRestore();
  });

  it("a chat removed from the page while it is being resumed stays stored, even when that reconnect fails", async () => {
    const h = makeDeps();
    h.storage.value = { chat: CHAT, visible: true };
    let refuse: (error: Error) => void = () => {};
    h.adapter.connect = () => new Promise((_, reject) => (refuse = reject));
    const view = render(<ChatWidget deps={h.deps} />);
    await flush();
    view.unmount();
    refuse(new Error("Unable to connect."));
    await flush();
    expect(h.storage.value).toEqual({ chat: CHAT, visible: true });
  });

  it("a chat that has ended is forgotten: the next page does not try to resume it", async () => {
    const h = makeDeps();
    render(<ChatWidget deps={h.deps} />);
    fireEvent.click(screen.getByRole("button", { name: "Open chat" }));
    await flush();
    expect(h.storage.value).not.toBeNull();
    act(() =>
      h.adapter.last.handlers.onMessage(
        event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT", DisplayName: "Sam" }),
      ),
    );
    await flush();
    expect(h.storage.value).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Minimise chat window" }));
    expect(h.storage.value).toBeNull();
  });

  it("a chat-ended event from the customer does not end the chat: it stays stored for the next page", async () => {
    const h = makeDeps();
    render(<ChatWidget deps={h.deps} />);
    fireEvent.click(screen.getByRole("button", { name: "Open chat" }));
    await flush();
    act(() =>
      h.adapter.last.handlers.onMessage(
        event(ContentType.CHAT_ENDED, { ParticipantRole: "CUSTOMER" }),
      ),
    );
    await flush();
    expect(h.storage.value?.chat).toEqual(CHAT);
  });

  it("items fetched right after a fresh start are handled as live (bot echo, receipt)", async () => {
    const h = makeDeps();
    const bot = botMessage("welcome-flow");
    h.adapter.transcript = [bot];
    render(<ChatWidget deps={h.deps} />);
    fireEvent.click(screen.getByRole("button", { name: "Open chat" }));
    await flush();
    expect(h.adapter.last.sent.map((s) => s.content)).toEqual(["welcome-flow"]);
    // The same item arriving on the websocket later is not handled twice.
    h.adapter.last.handlers.onMessage(bot);
    await flush();
    expect(h.adapter.last.sent).toHaveLength(1);
  });
});

describe("transcript repair after a reconnect", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("a connection established during the restore does not replay history as live traffic", async () => {
    const h = makeDeps();
    h.storage.value = { chat: CHAT, visible: true };
    h.adapter.transcript = [botMessage("menu"), customerMessage("menu"), agentMessage("Hi")];
    const connect = h.adapter.connect.bind(h.adapter);
    h.adapter.connect = async (details, handlers) => {
      const connection = await connect(details, handlers);
      const getTranscript = connection.getTranscript.bind(connection);
      let first = true;
      connection.getTranscript = async (request) => {
        if (first) {
          first = false;
          // The client reports the connection (again) while the restore is waiting.
          handlers.onConnectionEstablished();
          await new Promise((r) => setTimeout(r, 100));
        }
        return getTranscript(request);
      };
      return connection;
    };
    render(<ChatWidget deps={h.deps} />);
    await flush();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(h.adapter.last.transcriptRequests).toHaveLength(2);
    expect(h.adapter.last.sent).toEqual([]);
    expect(h.adapter.last.events).toEqual([]);
    expect(screen.getAllByText("Hi")).toHaveLength(1);
  });
});

describe("history is never replayed as live traffic", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  /** An adapter whose client delivers these items through onMessage before connect() resolves. */
  function deliverOnConnect(h: ReturnType<typeof makeDeps>, items: Item[]) {
    const connect = h.adapter.connect.bind(h.adapter);
    h.adapter.connect = async (details, handlers) => {
      items.forEach((item) => handlers.onMessage(item));
      return connect(details, handlers);
    };
  }

  it("after a reload, items the page already handled are history whichever path brings them; newer ones are live", async () => {
    const h = makeDeps();
    const oldBot = botMessage("menu");
    const oldAgent = agentMessage("Earlier");
    const newAgent = agentMessage("While you were away");
    h.storage.value = { chat: CHAT, visible: true, handledUntil: oldAgent.AbsoluteTime };
    deliverOnConnect(h, [oldBot, oldAgent, newAgent]);
    render(<ChatWidget deps={h.deps} />);
    await flush();
    expect(h.adapter.last.sent).toEqual([]);
    expect(h.adapter.last.events).toEqual([
      {
        contentType: ContentType.DELIVERED_RECEIPT,
        content: JSON.stringify({ messageId: newAgent.Id }),
      },
      {
        contentType: ContentType.READ_RECEIPT,
        content: JSON.stringify({ messageId: newAgent.Id }),
      },
    ]);
    expect(screen.getByText("Earlier")).toBeTruthy();
    expect(screen.getByText("While you were away")).toBeTruthy();
    expect(h.storage.value?.handledUntil).toBe(newAgent.AbsoluteTime);
  });

  it("after a reload, a bot message that came during the reload is found by getTranscript and echoed", async () => {
    const h = makeDeps();
    const handled = agentMessage("Seen before");
    const during = botMessage("menu");
    h.storage.value = { chat: CHAT, visible: true, handledUntil: handled.AbsoluteTime };
    h.adapter.transcript = [handled, during];
    render(<ChatWidget deps={h.deps} />);
    await flush();
    expect(h.adapter.last.sent.map((s) => s.content)).toEqual(["menu"]);
    expect(delivered(h.adapter.last.events)).toEqual([JSON.stringify({ messageId: during.Id })]);
  });

  it("on a fresh chat, items the client delivers before connect resolves are handled once connected", async () => {
    const h = makeDeps();
    const bot = botMessage("welcome-flow");
    deliverOnConnect(h, [bot]);
    render(<ChatWidget deps={h.deps} />);
    fireEvent.click(screen.getByRole("button", { name: "Open chat" }));
    await flush();
    expect(h.adapter.last.sent.map((s) => s.content)).toEqual(["welcome-flow"]);
    expect(delivered(h.adapter.last.events)).toEqual([JSON.stringify({ messageId: bot.Id })]);
  });
});

function delivered(events: { contentType: string; content?: string }[]): (string | undefined)[] {
  return events
    .filter((e) => e.contentType === ContentType.DELIVERED_RECEIPT)
    .map((e) => e.content);
}

describe("messages not stored yet survive a reload (issue 9)", () => {
  it("a message written but not stored yet is kept in session storage; after a reload it is sent again with the same ClientToken and shown once", async () => {
    const h = makeDeps();
    render(<ChatWidget deps={h.deps} />);
    fireEvent.click(screen.getByRole("button", { name: "Open chat" }));
    await flush();
    const first = h.adapter.last;
    first.sendMessage = (_content, _contentType, clientToken) => {
      first.clientTokens.push(clientToken);
      return new Promise(() => {}); // the page goes away before the answer
    };
    const box = screen.getByRole("textbox", { name: "Message" });
    fireEvent.change(box, { target: { value: "pending" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await flush();
    const token = first.clientTokens[0]!;
    expect(h.storage.value?.unsent).toEqual([{ clientToken: token, content: "pending" }]);

    cleanup(); // the reload
    render(<ChatWidget deps={h.deps} />);
    await flush();
    const second = h.adapter.last;
    expect(second).not.toBe(first);
    expect(second.clientTokens).toEqual([token]);
    expect(second.sent).toEqual([{ content: "pending", contentType: ContentType.TEXT_PLAIN }]);
    expect(screen.getAllByText("pending")).toHaveLength(1);
    expect(screen.queryByText("Sending…")).toBeNull();
    expect(h.storage.value?.unsent).toBeUndefined();
  });
});
