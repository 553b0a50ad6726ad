import type { ChatsResponse, QueueResponse, QueuedContact } from "@chat-widget/protocol";
import type { EventHandlers } from "../api/events.js";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentApi } from "../api/agent-api.js";
import { ConsoleChats } from "../chat/console-chats.js";
import type { ChatsStore } from "../state/chats-store.js";
import { fakeApi, fakeManager, fakeSessions } from "../test-support/fake-sessions.js";
import { chatInfo, customerMessage } from "../test-support/items.js";
import { Console } from "./Console.js";

afterEach(cleanup);

/** The live updates, driven by the test. */
class FakeEvents {
  static last: FakeEvents;
  handlers: EventHandlers | null = null;
  closed = false;
  constructor() {
    FakeEvents.last = this;
  }
  readonly subscribe = (handlers: EventHandlers) => {
    this.handlers = handlers;
    return () => {
      this.closed = true;
    };
  };
  fire(type: "queue" | "chats", data: unknown) {
    act(() => {
      if (type === "queue") this.handlers!.queue(data as QueueResponse);
      else this.handlers!.chats(data as ChatsResponse);
    });
  }
}

const waiting = (id: string, name: string): QueuedContact => ({
  ContactId: id,
  Queue: "advisors",
  QueuedAt: new Date().toISOString(),
  CustomerName: name,
  OrderNumber: `A-${id}`,
});

function renderConsole(
  api: AgentApi,
  availability: "Available" | "Offline" = "Available",
  prepare?: Parameters<typeof fakeSessions>[0],
) {
  const sessions = fakeSessions(prepare);
  const onAdvisor = vi.fn();
  const onSignOut = vi.fn();
  const createChats = (store: ChatsStore) =>
    new ConsoleChats({
      api,
      token: "tok",
      store,
      sessions: sessions.factory,
      manager: fakeManager(),
      isVisible: () => true,
      progressFetch: () => ({ fetch: vi.fn(), listener: null }),
    });
  render(
    <Console
      api={api}
      token="tok"
      advisor={{
        AdvisorId: "a",
        Username: "demo",
        Name: "Sam",
        Availability: availability,
        MaxConcurrentChats: 10,
      }}
      onAdvisor={onAdvisor}
      onSignOut={onSignOut}
      createChats={createChats}
      subscribeEvents={new FakeEvents().subscribe}
    />,
  );
  return { sessions, onAdvisor, onSignOut, events: FakeEvents.last };
}

describe("the console", () => {
  it("the queue updates live from the events stream", () => {
    const { events } = renderConsole(fakeApi());
    events.fire("queue", { Contacts: [waiting("1", "Ada"), waiting("2", "Bob")] });
    expect(screen.getAllByRole("button", { name: /Accept chat with/ })).toHaveLength(2);
    events.fire("queue", { Contacts: [waiting("2", "Bob")] });
    expect(
      screen
        .getAllByRole("button", { name: /Accept chat with/ })
        .map((b) => b.getAttribute("aria-label")),
    ).toEqual(["Accept chat with Bob"]);
  });

  it("accepting opens the chat in a tab, in view, with its order number", async () => {
    const api = fakeApi({
      accept: vi.fn(async () =>
        chatInfo("7", { CustomerName: "Ada", Attributes: { orderNumber: "A-7" } }),
      ),
    });
    const { events, sessions } = renderConsole(api);
    events.fire("queue", { Contacts: [waiting("7", "Ada")] });
    fireEvent.click(screen.getByRole("button", { name: "Accept chat with Ada" }));
    await waitFor(() =>
      expect(screen.getByRole("tab", { name: /Ada/ }).getAttribute("aria-selected")).toBe("true"),
    );
    expect(api.accept).toHaveBeenCalledWith("tok", "7");
    expect(sessions.created).toHaveLength(1);
    expect(screen.getByTestId("order-number").textContent).toBe("A-7");
    await waitFor(() => expect(document.activeElement?.getAttribute("aria-label")).toBe("Message"));
  });

  it("the accepted chat comes into view at once, while it is still connecting, not the chat in view before", async () => {
    const api = fakeApi({ accept: vi.fn(async () => chatInfo("2", { CustomerName: "Bob" })) });
    const { events } = renderConsole(api, "Available", (session) => {
      // Bob's chat takes its time to connect.
      if (session.args.chatDetails.contactId === "2")
        session.connect.mockImplementation(() => new Promise(() => {}));
    });
    events.fire("chats", {
      Chats: [{ ...chatInfo("1", { CustomerName: "Ada" }), Queue: "q", AcceptedAt: "" }],
    });
    await waitFor(() =>
      expect(screen.getByRole("tab", { name: /Ada/ }).getAttribute("aria-selected")).toBe("true"),
    );
    events.fire("queue", { Contacts: [waiting("2", "Bob")] });
    fireEvent.click(screen.getByRole("button", { name: "Accept chat with Bob" }));
    await waitFor(() =>
      expect(screen.getByRole("tab", { name: /Bob/ }).getAttribute("aria-selected")).toBe("true"),
    );
    expect(screen.getByRole("tab", { name: /Ada/ }).getAttribute("aria-selected")).toBe("false");
  });

  it("the visitor panel of the chat in view reads its visitor again when they move (issue 60)", async () => {
    const api = fakeApi();
    const { events } = renderConsole(api);
    events.fire("chats", {
      Chats: [{ ...chatInfo("1", { CustomerName: "Ada" }), Queue: "q", AcceptedAt: "" }],
    });
    await waitFor(() => expect(api.visitor).toHaveBeenCalledWith("tok", "1"));
    expect(screen.getByRole("region", { name: "Visitor" })).toBeTruthy();
    const before = vi.mocked(api.visitor).mock.calls.length;
    act(() => events.handlers!.visitor({ ContactId: "someone-else" }));
    act(() => events.handlers!.visitor({ ContactId: "1" }));
    await waitFor(() => expect(vi.mocked(api.visitor).mock.calls.length).toBe(before + 1));
  });

  it("the page title counts the unread messages of chats not in view", async () => {
    const { events, sessions } = renderConsole(fakeApi());
    events.fire("chats", {
      Chats: [
        { ...chatInfo("1", { CustomerName: "Ada" }), Queue: "q", AcceptedAt: "" },
        { ...chatInfo("2", { CustomerName: "Bob" }), Queue: "q", AcceptedAt: "" },
      ],
    });
    await waitFor(() => expect(sessions.created).toHaveLength(2));
    act(() => sessions.created[1]!.emit("message", customerMessage("m1", "hello", "2")));
    await waitFor(() => expect(document.title).toBe("(1) Agent console"));
    fireEvent.click(screen.getByRole("tab", { name: /Bob/ }));
    await waitFor(() => expect(document.title).toBe("Agent console"));
  });

  it("a chat whose link drops says it is reconnecting and that messages will go; the notice leaves when it is back", async () => {
    const { events, sessions } = renderConsole(fakeApi());
    events.fire("chats", {
      Chats: [{ ...chatInfo("1", { CustomerName: "Ada" }), Queue: "q", AcceptedAt: "" }],
    });
    await waitFor(() => expect(screen.getByRole("tab", { name: /Ada/ })).toBeTruthy());
    await waitFor(() => expect(screen.queryByText("Connecting…")).toBeNull());
    const notice = "Connection lost. Reconnecting… Messages you send will go when it is back.";
    expect(screen.queryByText(notice)).toBeNull();
    act(() => sessions.created[0]!.emit("connectionLost", {}));
    expect(screen.getByRole("status").textContent).toBe(notice);
    act(() => sessions.created[0]!.emit("connectionEstablished", {}));
    expect(screen.queryByText(notice)).toBeNull();
  });

  it("chats already accepted (after a reload) are reopened from the events stream", async () => {
    const { events, sessions } = renderConsole(fakeApi());
    events.fire("chats", {
      Chats: [{ ...chatInfo("1", { CustomerName: "Ada" }), Queue: "q", AcceptedAt: "" }],
    });
    await waitFor(() => expect(screen.getByRole("tab", { name: /Ada/ })).toBeTruthy());
    expect(sessions.created.map((s) => s.args.chatDetails.contactId)).toEqual(["1"]);
  });

  it("an offline advisor cannot accept until they set themselves Available", async () => {
    const api = fakeApi({
      setAvailability: vi.fn(async () => ({
        Advisor: {
          AdvisorId: "a",
          Username: "demo",
          Name: "Sam",
          Availability: "Available" as const,
          MaxConcurrentChats: 10,
        },
      })),
    });
    const { events, onAdvisor } = renderConsole(api, "Offline");
    events.fire("queue", { Contacts: [waiting("1", "Ada")] });
    expect(screen.getByRole("button", { name: "Accept chat with Ada" })).toHaveProperty(
      "disabled",
      true,
    );
    fireEvent.click(screen.getByRole("switch"));
    await waitFor(() =>
      expect(onAdvisor).toHaveBeenCalledWith(
        expect.objectContaining({ Availability: "Available" }),
      ),
    );
    expect(api.setAvailability).toHaveBeenCalledWith("tok", "Available");
  });

  it("says when live updates are interrupted", () => {
    const { events } = renderConsole(fakeApi());
    act(() => events.handlers!.trouble(true));
    expect(screen.getByRole("alert").textContent).toContain("Live updates are interrupted");
    act(() => events.handlers!.trouble(false));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("a mention by another advisor is said, and dismissed (issue 60)", () => {
    const { events } = renderConsole(fakeApi());
    act(() =>
      events.handlers!.mention!({
        ContactId: "1",
        NoteId: "n1",
        From: "Kim",
        Excerpt: "@demo look",
      }),
    );
    expect(
      screen.getByText("Kim mentioned you in a note: “@demo look”", { exact: false }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Dismiss mention" }));
    expect(screen.queryByText(/mentioned you/)).toBeNull();
  });

  it("a failed server sign-out still signs out locally and passes the problem on", async () => {
    const api = fakeApi({
      signOut: vi.fn(async () => {
        throw new Error("Network down");
      }),
    });
    const { onSignOut } = renderConsole(api);
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(onSignOut).toHaveBeenCalledWith("Sign-out failed: Network down"));
  });

  it("End chat is disabled while its request is in flight", async () => {
    let finish = () => {};
    const api = fakeApi({
      end: vi.fn(() => new Promise<void>((resolve) => (finish = resolve))),
    });
    const { events } = renderConsole(api);
    events.fire("chats", {
      Chats: [{ ...chatInfo("1", { CustomerName: "Ada" }), Queue: "q", AcceptedAt: "" }],
    });
    const button = await screen.findByRole("button", { name: "End chat" });
    fireEvent.click(button);
    expect(button).toHaveProperty("disabled", true);
    fireEvent.click(button);
    expect(api.end).toHaveBeenCalledTimes(1);
    await act(async () => finish());
    expect(button).toHaveProperty("disabled", false);
  });

  it("closing an ended chat moves focus to the tab of the chat now in view", async () => {
    const { events, sessions } = renderConsole(fakeApi());
    events.fire("chats", {
      Chats: [
        { ...chatInfo("1", { CustomerName: "Ada" }), Queue: "q", AcceptedAt: "" },
        { ...chatInfo("2", { CustomerName: "Bob" }), Queue: "q", AcceptedAt: "" },
      ],
    });
    await waitFor(() => expect(sessions.created).toHaveLength(2));
    act(() => sessions.created[0]!.emit("ended", {}));
    fireEvent.click(await screen.findByRole("button", { name: "Close chat" }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole("tab", { name: /Bob/ })),
    );
  });

  it("signing out closes the events stream", async () => {
    const { events, onSignOut } = renderConsole(fakeApi());
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(onSignOut).toHaveBeenCalled());
    cleanup();
    expect(events.closed).toBe(true);
  });
});
