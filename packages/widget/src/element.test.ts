import { act } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineChatWidget } from "./element.js";
import { ContentType } from "@chat-widget/protocol";
import { event, jwtWith, makeDeps } from "./test-support/fakes.js";
import { flush } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  document.body.innerHTML = "";
  vi.useRealTimers();
});

describe("the custom element", () => {
  it("registers chat-widget with an open shadow root; all styles live in the shadow root; attribute jwt → prop jwt", async () => {
    const h = makeDeps();
    defineChatWidget(h.deps, "chat-widget-test");
    const el = document.createElement("chat-widget-test");
    el.setAttribute("jwt", jwtWith({ attributes: { orderNumber: "77" } }));
    await act(async () => {
      document.body.appendChild(el);
    });
    await flush();
    const root = el.shadowRoot;
    expect(root).not.toBeNull();
    expect(root!.mode).toBe("open");
    expect(root!.querySelector("style")?.textContent).toContain(
      ".launcher{position:fixed;right:calc(25px + var(--cw-inset-right,0px));bottom:calc(25px + var(--cw-inset-bottom,0px));width:75px;height:75px",
    );
    expect(document.head.querySelector("style:not(#chat-widget-fonts)")).toBeNull();
    const button = root!.querySelector<HTMLButtonElement>("button.launcher")!;
    await act(async () => button.click());
    await flush();
    expect(h.gateway.reportOrderNumber).toHaveBeenCalledWith(
      expect.objectContaining({ ContactId: "contact-1" }),
      {
        orderNumber: "77",
      },
    );
    expect(root!.querySelector("[role=dialog]")).not.toBeNull();
  });

  it("removed from the page: the chat's subscriptions are dropped and the participant is not disconnected (the chat survives navigation)", async () => {
    const h = makeDeps();
    defineChatWidget(h.deps, "chat-widget-removed");
    const el = document.createElement("chat-widget-removed");
    await act(async () => {
      document.body.appendChild(el);
    });
    await flush();
    await act(async () =>
      el.shadowRoot!.querySelector<HTMLButtonElement>("button.launcher")!.click(),
    );
    await flush();
    const stored = h.storage.value;
    expect(stored).not.toBeNull();
    await act(async () => el.remove());
    await flush();
    expect(h.adapter.last.disposed).toBe(true);
    expect(h.adapter.last.disconnects).toBe(0);
    expect(h.storage.value).toEqual(stored);
  });

  it("a jwt set or changed after the element is on the page is the one the chat uses", async () => {
    const h = makeDeps();
    defineChatWidget(h.deps, "chat-widget-late-jwt");
    const el = document.createElement("chat-widget-late-jwt");
    el.setAttribute("jwt", jwtWith({ attributes: { orderNumber: "1" } }));
    await act(async () => {
      document.body.appendChild(el);
    });
    await act(async () => el.setAttribute("jwt", jwtWith({ attributes: { orderNumber: "2" } })));
    await act(async () =>
      el.shadowRoot!.querySelector<HTMLButtonElement>("button.launcher")!.click(),
    );
    await flush();
    expect(h.gateway.reportOrderNumber).toHaveBeenCalledWith(expect.anything(), {
      orderNumber: "2",
    });
  });

  it("moved on the page (removed and added again at once), it keeps its chat as it is: same shadow root, no second connection, an ended chat still shown", async () => {
    const h = makeDeps();
    defineChatWidget(h.deps, "chat-widget-moved");
    const el = document.createElement("chat-widget-moved");
    await act(async () => {
      document.body.appendChild(el);
    });
    const shadow = el.shadowRoot!;
    await act(async () => shadow.querySelector<HTMLButtonElement>("button.launcher")!.click());
    await flush();
    act(() =>
      h.adapter.last.handlers.onMessage(
        event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT" }),
      ),
    );
    await flush();
    const other = document.createElement("div");
    document.body.appendChild(other);
    await act(async () => {
      other.appendChild(el);
    });
    await flush();
    expect(el.shadowRoot).toBe(shadow);
    expect(h.adapter.connections).toHaveLength(1);
    expect(h.adapter.last.disposed).toBe(false);
    expect(shadow.textContent).toContain("Chat has ended!");
    expect(shadow.textContent).toContain("Start a new chat");
  });

  it("the jwt property reads and writes the attribute", async () => {
    const h = makeDeps();
    defineChatWidget(h.deps, "chat-widget-property");
    const el = document.createElement("chat-widget-property") as HTMLElement & {
      jwt?: string | null;
    };
    await act(async () => {
      document.body.appendChild(el);
    });
    const token = jwtWith({ attributes: { orderNumber: "3" } });
    await act(async () => {
      el.jwt = token;
    });
    expect(el.getAttribute("jwt")).toBe(token);
    expect(el.jwt).toBe(token);
    await act(async () =>
      el.shadowRoot!.querySelector<HTMLButtonElement>("button.launcher")!.click(),
    );
    await flush();
    expect(h.gateway.reportOrderNumber).toHaveBeenCalledWith(expect.anything(), {
      orderNumber: "3",
    });
    el.jwt = null;
    expect(el.hasAttribute("jwt")).toBe(false);
  });

  it("defining twice keeps the first definition", () => {
    const first = defineChatWidget(makeDeps().deps, "chat-widget-twice");
    expect(defineChatWidget(makeDeps().deps, "chat-widget-twice")).toBe(first);
  });
});
