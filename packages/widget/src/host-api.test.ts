import { ContentType } from "@chat-widget/protocol";
import { act, fireEvent } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineChatWidget } from "./element.js";
import type { ChatWidgetElement, ChatWidgetEventMap } from "./host-api.js";
import type { WidgetDeps } from "./ChatWidget.js";
import { CHAT, agentMessage, event, listPicker, makeDeps } from "./test-support/fakes.js";
import { flush } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
/** Listeners the tests put on document, taken off after each. */
const offs: (() => void)[] = [];
afterEach(() => {
  for (const off of offs.splice(0)) off();
  document.body.innerHTML = "";
  vi.useRealTimers();
});

let names = 0;

/** A fresh <chat-widget> on the page, with every host event it raises recorded (heard on document). */
async function hostPage(deps: Partial<WidgetDeps> = {}) {
  const h = makeDeps(deps);
  const name = `chat-widget-host-${++names}`;
  defineChatWidget(h.deps, name);
  const el = document.createElement(name) as ChatWidgetElement;
  const heard: [string, unknown][] = [];
  const events: (keyof ChatWidgetEventMap)[] = [
    "chat-widget:open",
    "chat-widget:minimise",
    "chat-widget:message",
    "chat-widget:unread",
    "chat-widget:ended",
  ];
  for (const type of events) {
    const listener = (e: Event) => {
      const custom = e as CustomEvent;
      expect([custom.bubbles, custom.composed, custom.target]).toEqual([true, true, el]);
      heard.push([type, custom.detail]);
    };
    document.addEventListener(type, listener);
    offs.push(() => document.removeEventListener(type, listener));
  }
  await act(async () => {
    document.body.appendChild(el);
  });
  await flush();
  const receive = async (item: Parameters<typeof h.adapter.last.handlers.onMessage>[0]) => {
    act(() => h.adapter.last.handlers.onMessage(item));
    await flush();
  };
  const run = async (call: () => void) => {
    await act(async () => call());
    await flush();
  };
  const names_ = () => heard.map(([type]) => type);
  return { ...h, el, heard, names: names_, receive, run };
}

/** The widget's next connection waits until the test calls the function returned. */
function holdConnection(p: Awaited<ReturnType<typeof hostPage>>): () => void {
  const connect = p.adapter.connect.bind(p.adapter);
  let arrive: () => void = () => {};
  p.adapter.connect = (details, handlers) =>
    new Promise((resolve) => (arrive = () => resolve(connect(details, handlers))));
  return () => arrive();
}

describe("the host page's API on <chat-widget> (issue 25)", () => {
  it("open() starts a chat and shows it; minimise() hides it; open() shows it again — each raising its event", async () => {
    const p = await hostPage();
    await p.run(() => p.el.open());
    expect(p.gateway.verify).toHaveBeenCalledTimes(1);
    expect(p.el.shadowRoot!.querySelector("[role=dialog]")).not.toBeNull();
    await p.run(() => p.el.minimise());
    expect(p.el.shadowRoot!.querySelector("[role=dialog]")).toBeNull();
    await p.run(() => p.el.open());
    expect(p.el.shadowRoot!.querySelector("[role=dialog]")).not.toBeNull();
    expect(p.adapter.connections).toHaveLength(1);
    expect(p.names()).toEqual(["chat-widget:open", "chat-widget:minimise", "chat-widget:open"]);
  });

  it("a call made as the element joins the page waits for the widget to be ready", async () => {
    const h = makeDeps();
    defineChatWidget(h.deps, "chat-widget-early-call");
    const el = document.createElement("chat-widget-early-call") as ChatWidgetElement;
    document.body.appendChild(el);
    el.open();
    await act(async () => {});
    await flush();
    expect(el.shadowRoot!.querySelector("[role=dialog]")).not.toBeNull();
  });

  it("unreadCount and chat-widget:unread follow the advisor's messages while minimised; opening clears them", async () => {
    const p = await hostPage();
    await p.run(() => p.el.open());
    await p.run(() => p.el.minimise());
    expect(p.el.unreadCount).toBe(0);
    await p.receive(agentMessage("Are you still there?"));
    await p.receive(listPicker("Anything else?", ["Yes", "No"]));
    expect(p.el.unreadCount).toBe(2);
    await p.run(() => p.el.open());
    expect(p.el.unreadCount).toBe(0);
    const unread = p.heard.filter(([type]) => type === "chat-widget:unread").map(([, d]) => d);
    expect(unread).toEqual([{ count: 1 }, { count: 2 }, { count: 0 }]);
  });

  it("chat-widget:message carries each message once: the advisor's, the bot's choices, the visitor's once stored; no events", async () => {
    const p = await hostPage();
    await p.run(() => p.el.open());
    await p.receive(agentMessage("Hello, I'm Sam", { Id: "a-1" }));
    await p.receive(agentMessage("Hello, I'm Sam", { Id: "a-1" }));
    await p.receive(listPicker("Anything else?", ["Yes", "No"], { Id: "lp-1" }));
    await p.receive(event(ContentType.PARTICIPANT_JOINED, { ParticipantRole: "AGENT" }));
    const textbox = p.el.shadowRoot!.querySelector("textarea")!;
    await p.run(() => {
      fireEvent.change(textbox, { target: { value: "Where is my parcel?" } });
      fireEvent.keyDown(textbox, { key: "Enter" });
    });
    const messages = () =>
      p.heard.filter(([type]) => type === "chat-widget:message").map(([, d]) => d);
    expect(messages()).toEqual([
      expect.objectContaining({ id: "a-1", kind: "text", content: "Hello, I'm Sam" }),
      expect.objectContaining({ id: "lp-1", kind: "template" }),
      expect.objectContaining({
        id: "sent-1",
        kind: "text",
        participantRole: "customer",
        content: "Where is my parcel?",
      }),
    ]);
    expect(messages()[2]).not.toHaveProperty("delivery");
  });

  it("end() ends the chat for both sides without asking, and raises chat-widget:ended; so does the advisor ending it", async () => {
    const p = await hostPage();
    await p.run(() => p.el.open());
    await p.run(() => p.el.end());
    expect(p.adapter.last.disconnects).toBe(1);
    expect(p.el.shadowRoot!.querySelector("[role=dialog]")).toBeNull();
    expect(p.names()).toEqual(["chat-widget:open", "chat-widget:ended"]);

    await p.run(() => p.el.open());
    await p.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT" }));
    expect(p.names().filter((n) => n === "chat-widget:ended")).toHaveLength(2);
  });

  it("forget() (a site's log-out, issue 57) ends the chat, closes the window and forgets the remembered chat; before any chat, it forgets at once", async () => {
    const p = await hostPage();
    const forget = p.gateway.forget;
    await p.run(() => p.el.open());
    await p.run(() => p.el.forget());
    expect(p.adapter.last.disconnects).toBe(1);
    expect(p.el.shadowRoot!.querySelector("[role=dialog]")).toBeNull();
    expect(p.names()).toEqual(["chat-widget:open", "chat-widget:ended"]);
    expect(forget).toHaveBeenCalled();
    // The next open() is a new chat, not the one that was going.
    await p.run(() => p.el.open());
    expect(p.gateway.startChat).toHaveBeenCalledTimes(2);

    const fresh = await hostPage();
    const before = fresh.gateway.forget;
    await fresh.run(() => fresh.el.forget());
    expect(before).toHaveBeenCalled();
    expect(fresh.gateway.startChat).not.toHaveBeenCalled();
  });

  it('data-launcher="hidden": no floating button; the host opens the chat, and focus goes back to its own button when the window hides', async () => {
    const help = document.createElement("button");
    help.textContent = "Help";
    document.body.appendChild(help);
    const p = await hostPage({ launcher: "hidden" });
    expect(p.el.shadowRoot!.querySelector("button")).toBeNull();
    help.focus();
    await p.run(() => p.el.open());
    expect(p.el.shadowRoot!.querySelector("[role=dialog]")).not.toBeNull();
    expect(document.activeElement).toBe(p.el);
    await p.run(() => p.el.minimise());
    expect(p.el.shadowRoot!.querySelector("button.launcher")).toBeNull();
    expect(document.activeElement).toBe(help);
  });

  it("an open() queued as the element joins a page with a stored chat shows that chat: none started beside it", async () => {
    const h = makeDeps();
    h.storage.value = { chat: CHAT, visible: false };
    defineChatWidget(h.deps, "chat-widget-resume-open");
    const el = document.createElement("chat-widget-resume-open") as ChatWidgetElement;
    document.body.appendChild(el);
    el.open();
    await act(async () => {});
    await flush();
    expect(h.gateway.verify).not.toHaveBeenCalled();
    expect(h.adapter.connections).toHaveLength(1);
    expect(h.adapter.details).toEqual([CHAT]);
    expect(el.shadowRoot!.querySelector("[role=dialog]")).not.toBeNull();
  });

  it("end() while the chat is still connecting: the connection, when it comes, leaves the chat", async () => {
    const p = await hostPage({ launcher: "hidden" });
    const arrive = holdConnection(p);
    await p.run(() => p.el.open());
    expect(p.el.shadowRoot!.querySelector("[role=status]")?.getAttribute("aria-label")).toBe(
      "Loading",
    );
    await p.run(() => p.el.end());
    await p.run(() => arrive());
    expect(p.adapter.last.disconnects).toBe(1);
    expect(p.adapter.last.disposed).toBe(true);
    expect(p.el.shadowRoot!.querySelector("[role=dialog]")).toBeNull();
    expect(p.storage.value).toBeNull();
  });

  it("minimise() while the chat is still connecting: it connects minimised, and open() shows it", async () => {
    const p = await hostPage({ launcher: "hidden" });
    const arrive = holdConnection(p);
    await p.run(() => p.el.open());
    await p.run(() => p.el.minimise());
    await p.run(() => arrive());
    expect(p.adapter.connections).toHaveLength(1);
    expect(p.el.shadowRoot!.querySelector("[role=dialog]")).toBeNull();
    expect(p.storage.value).toMatchObject({ visible: false });
    await p.run(() => p.el.open());
    expect(p.el.shadowRoot!.querySelector("[role=dialog]")).not.toBeNull();
    expect(p.names()).toEqual(["chat-widget:open"]);
  });

  it("with the launcher hidden, focus the visitor moved elsewhere stays there when the host minimises", async () => {
    const help = document.createElement("button");
    const search = document.createElement("input");
    document.body.append(help, search);
    const p = await hostPage({ launcher: "hidden" });
    help.focus();
    await p.run(() => p.el.open());
    search.focus();
    await p.run(() => p.el.minimise());
    expect(document.activeElement).toBe(search);
  });
});
