/**
 * `<chat-widget>` with a facade (issue 61): the painted launcher until the visitor reaches for
 * it, the app (the real React widget over fakes) loaded only on intent, the host API's calls
 * held until it is there, and React's launcher taking the painted one's place.
 */
import { act, fireEvent } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mountChatWidget } from "../element.js";
import type { ChatWidgetElement } from "../host-api.js";
import { makeDeps } from "../test-support/fakes.js";
import { flush } from "../test-support/render.js";
import { defineWidgetElement } from "./element.js";
import type { AppMount } from "./element.js";
import { paintLauncher } from "./paint.js";
import { ERROR_NOTICE_MS } from "../state/constants.js";
import { launcherTexts } from "./texts.js";
import { headStart } from "./head-start.js";
import { startChat } from "../state/start-chat.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  document.body.innerHTML = "";
  vi.restoreAllMocks();
  vi.useRealTimers();
});

let names = 0;

/** An element whose app arrives when the test says (or fails to), and what it was asked. */
function facadePage(
  options: {
    chatExists?: boolean;
    unread?: number;
    hidden?: boolean;
    preload?: (load: () => void) => void;
  } = {},
) {
  const h = makeDeps();
  const begun = headStart((jwt) => startChat(h.deps.gateway, jwt, h.logger));
  const app = mountChatWidget({ ...h.deps, headStart: begun });
  const loads: ((loaded: AppMount | null) => void)[] = [];
  const forget = vi.fn();
  const name = `chat-widget-facade-${++names}`;
  defineWidgetElement(
    {
      app: () => new Promise<AppMount | null>((resolve) => loads.push(resolve)),
      // As main.ts: a chat begun is dropped, the remembered one forgotten.
      forget: () => {
        begun.discard();
        forget();
      },
      facade: {
        chatExists: () => options.chatExists ?? false,
        begin: (jwt) => begun.begin(jwt),
        preload: options.preload,
        unread: () => options.unread ?? 0,
        paint: (shadow, intent, click) =>
          paintLauncher(shadow, {
            texts: launcherTexts("fr"),
            colorScheme: "auto",
            hidden: options.hidden ?? false,
            intent,
            click,
          }),
      },
    },
    name,
  );
  const el = document.createElement(name) as ChatWidgetElement;
  document.body.append(el);
  const root = el.shadowRoot!;
  return {
    h,
    el,
    root,
    forget,
    loads,
    launchers: () => [...root.querySelectorAll<HTMLButtonElement>("button.launcher")],
    loading: () => root.querySelector("[role=status]"),
    /** The app arrives (or, with null, could not be loaded). */
    async arrive(loaded: AppMount | null = app) {
      await act(async () => loads.splice(0).forEach((resolve) => resolve(loaded)));
      await flush();
    },
  };
}

describe("<chat-widget> before its app (issue 61)", () => {
  it("paints the launcher in the visitor's language with the widget's styles, and loads nothing until the pointer comes over it", async () => {
    const p = facadePage();
    const [painted] = p.launchers();
    expect(painted!.getAttribute("aria-label")).toBe("Ouvrir le chat");
    expect(painted!.className).toBe("launcher appear");
    expect(p.root.querySelector(".cw")!.getAttribute("lang")).toBe("fr");
    expect(p.root.querySelector("style")!.textContent).toContain(".launcher{position:fixed");
    expect(p.loads).toHaveLength(0);
    // Nothing the host page does without a chat wants the app.
    p.el.minimise();
    p.el.end();
    expect(p.loads).toHaveLength(0);

    fireEvent.pointerEnter(painted!);
    expect(p.loads).toHaveLength(1);
    fireEvent.focus(painted!);
    expect(p.loads).toHaveLength(1);
    await p.arrive();
    // React's launcher took the painted one's place, without appearing again; no window.
    expect(p.launchers()).toHaveLength(1);
    expect(p.launchers()[0]).not.toBe(painted);
    expect(p.launchers()[0]!.className).toBe("launcher");
    expect(p.root.querySelector("[role=dialog]")).toBeNull();
  });

  it('data-preload="idle": the app loads when the page says it is idle, with no intent, and opens nothing', async () => {
    const idle: (() => void)[] = [];
    const p = facadePage({ preload: (load) => idle.push(load) });
    expect(idle).toHaveLength(1);
    expect(p.loads).toHaveLength(0);
    // Moved on the page: no second preload is asked for.
    document.body.append(p.el);
    expect(idle).toHaveLength(1);
    idle[0]!();
    expect(p.loads).toHaveLength(1);
    // Intent meanwhile asks for nothing more.
    fireEvent.pointerEnter(p.launchers()[0]!);
    expect(p.loads).toHaveLength(1);
    await p.arrive();
    expect(p.launchers()).toHaveLength(1);
    expect(p.launchers()[0]!.className).toBe("launcher");
    expect(p.root.querySelector("[role=dialog]")).toBeNull();
    expect(p.h.gateway.startChat).not.toHaveBeenCalled();
  });

  it('data-preload="idle" off the page by then: nothing loads until it is back', async () => {
    const idle: (() => void)[] = [];
    const p = facadePage({ preload: (load) => idle.push(load) });
    p.el.remove();
    idle[0]!();
    expect(p.loads).toHaveLength(0);
    document.body.append(p.el);
    expect(p.loads).toHaveLength(1);
    await p.arrive();
    expect(p.launchers()[0]!.className).toBe("launcher");
  });

  it("reads the page's colours and viewport only after the frame that first shows the launcher (no forced style or layout while the page loads)", async () => {
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, "requestAnimationFrame").mockImplementation((run) => frames.push(run));
    const read = vi.spyOn(window, "getComputedStyle");
    const p = facadePage();
    const cw = p.root.querySelector<HTMLElement>(".cw")!;
    expect(read).not.toHaveBeenCalled();
    expect(cw.style.getPropertyValue("--cw-on-primary")).toBe("");
    frames.splice(0).forEach((run) => run(0));
    expect(read).not.toHaveBeenCalled();
    await act(async () => vi.runOnlyPendingTimers());
    expect(read).toHaveBeenCalled();
    // The default primary #e56606 takes dark text (contrast.ts).
    expect(cw.style.getPropertyValue("--cw-on-primary")).not.toBe("");
  });

  it("a click before the app shows the loading indicator, then the chat starts once it is there", async () => {
    const p = facadePage();
    await act(async () => p.launchers()[0]!.click());
    expect(p.loading()!.getAttribute("aria-label")).toBe("Chargement");
    expect(p.loads).toHaveLength(1);
    // A second click while it loads asks for nothing more.
    await act(async () => p.launchers()[0]!.click());
    expect(p.loads).toHaveLength(1);
    await p.arrive();
    expect(p.root.querySelector("[role=dialog]")).not.toBeNull();
    expect(p.h.adapter.connections).toHaveLength(1);
  });

  it("a click before the app starts the chat at once; the app takes that chat and starts none of its own", async () => {
    const p = facadePage();
    p.el.jwt = "not-a-jwt";
    await act(async () => p.launchers()[0]!.click());
    expect(p.h.gateway.verify).toHaveBeenCalledTimes(1);
    expect(p.h.gateway.startChat).toHaveBeenCalledTimes(1);
    expect(p.h.gateway.startChat).toHaveBeenCalledWith("not-a-jwt");
    await p.arrive();
    expect(p.root.querySelector("[role=dialog]")).not.toBeNull();
    expect(p.h.gateway.startChat).toHaveBeenCalledTimes(1);
    expect(p.h.adapter.connections).toHaveLength(1);
  });

  it("a chat begun for another jwt (the page changed it meanwhile) is dropped: the app starts its own with the new one", async () => {
    const p = facadePage();
    p.el.jwt = "first";
    await act(async () => p.launchers()[0]!.click());
    p.el.jwt = "second";
    await p.arrive();
    expect(p.h.gateway.startChat.mock.calls).toEqual([["first"], ["second"]]);
    expect(p.root.querySelector("[role=dialog]")).not.toBeNull();
  });

  it("a head start that failed is the controller's to show once the app is there: the error notice, no second try", async () => {
    const p = facadePage();
    p.h.gateway.verify.mockResolvedValueOnce(false);
    await act(async () => p.launchers()[0]!.click());
    await flush();
    await p.arrive();
    expect(p.root.querySelector("[role=alert]")).not.toBeNull();
    expect(p.h.gateway.verify).toHaveBeenCalledTimes(1);
    expect(p.h.gateway.startChat).not.toHaveBeenCalled();
  });

  it("a head start that failed is tried again by the next click before the app", async () => {
    const p = facadePage();
    p.h.gateway.verify.mockResolvedValueOnce(false);
    await act(async () => p.launchers()[0]!.click());
    await flush();
    await act(async () => p.launchers()[0]!.click());
    await flush();
    expect(p.h.gateway.verify).toHaveBeenCalledTimes(2);
    await p.arrive();
    expect(p.root.querySelector("[role=dialog]")).not.toBeNull();
    expect(p.h.gateway.startChat).toHaveBeenCalledTimes(1);
  });

  it("forget() while a chat is begun drops it: the app, doing the calls in order, takes none begun before the log-out", async () => {
    const p = facadePage();
    await act(async () => p.launchers()[0]!.click());
    p.el.forget();
    expect(p.forget).toHaveBeenCalledTimes(1);
    await p.arrive();
    // open() started a chat of its own, and forget() then ended it.
    expect(p.h.gateway.startChat).toHaveBeenCalledTimes(2);
    expect(p.root.querySelector("[role=dialog]")).toBeNull();
  });

  it("open() on an element off the page begins no chat", () => {
    const p = facadePage();
    p.el.remove();
    p.el.open();
    expect(p.h.gateway.verify).not.toHaveBeenCalled();
    expect(p.loads).toHaveLength(0);
  });

  it("the app arriving mid-press: the painted button stays until its click, which opens the chat", async () => {
    const p = facadePage();
    const painted = p.launchers()[0]!;
    fireEvent.pointerEnter(painted);
    fireEvent.pointerDown(painted);
    await p.arrive();
    expect(painted.isConnected).toBe(true);
    const react = p.launchers().find((b) => b !== painted)!;
    expect(react.style.visibility).toBe("hidden");
    fireEvent.pointerUp(painted);
    await act(async () => painted.click());
    await act(async () => vi.advanceTimersByTime(0));
    await flush();
    expect(painted.isConnected).toBe(false);
    expect(p.root.querySelector("[role=dialog]")).not.toBeNull();
  });

  /** The painted launcher focused, then the app there: React's launcher hidden beneath it. */
  async function focusedWhileAppArrives() {
    const p = facadePage();
    const painted = p.launchers()[0]!;
    painted.focus();
    expect(p.loads).toHaveLength(1);
    await p.arrive();
    const react = p.launchers().find((b) => b !== painted)!;
    return { p, painted, react };
  }

  it("keyboard focus on the painted launcher keeps it as it is while the app arrives (no new button for a screen reader); when focus leaves, React's takes its place", async () => {
    const { p, painted, react } = await focusedWhileAppArrives();
    expect(painted.isConnected).toBe(true);
    expect(p.root.activeElement).toBe(painted);
    expect(react.style.visibility).toBe("hidden");
    painted.blur();
    await act(async () => vi.advanceTimersByTime(0));
    expect(painted.isConnected).toBe(false);
    expect(p.launchers()).toEqual([react]);
    expect(react.style.visibility).toBe("");
    expect(react.classList.contains("appear")).toBe(false);
  });

  it("Enter on the painted launcher, kept focused after the app arrived, opens the window, which takes focus; the painted launcher goes", async () => {
    const { p, painted } = await focusedWhileAppArrives();
    // Enter on a button is its click.
    await act(async () => painted.click());
    await flush();
    await act(async () => vi.advanceTimersByTime(0));
    const dialog = p.root.querySelector("[role=dialog]")!;
    expect(dialog).not.toBeNull();
    expect(dialog.contains(p.root.activeElement)).toBe(true);
    expect(painted.isConnected).toBe(false);
    expect(p.launchers()).toEqual([]);
  });

  it("a click before the app on the focused launcher whose chat fails to start: React's error notice, and the painted launcher and its loading indicator go", async () => {
    const p = facadePage();
    const painted = p.launchers()[0]!;
    painted.focus();
    p.h.gateway.verify.mockResolvedValueOnce(false);
    await act(async () => painted.click());
    expect(p.loading()).not.toBeNull();
    await flush();
    await p.arrive();
    await flush();
    expect(p.root.querySelector("[role=alert]")).not.toBeNull();
    expect(painted.isConnected).toBe(false);
    expect(p.loading()).toBeNull();
  });

  it("the app not loaded (offline): the error notice for 5 s, then the launcher is back and the next click tries again", async () => {
    const p = facadePage();
    await act(async () => p.launchers()[0]!.click());
    await p.arrive(null);
    expect(p.loading()).toBeNull();
    expect(p.root.querySelector("[role=alert]")!.textContent).toBe(
      launcherTexts("fr").ERROR_NOTICE,
    );
    expect(p.launchers()[0]!.hidden).toBe(true);
    await act(async () => vi.advanceTimersByTime(ERROR_NOTICE_MS - 1));
    expect(p.root.querySelector("[role=alert]")).not.toBeNull();
    await act(async () => vi.advanceTimersByTime(1));
    expect(p.root.querySelector("[role=alert]")).toBeNull();
    expect(p.launchers()[0]!.hidden).toBe(false);
    expect(p.root.querySelector("[role=dialog]")).toBeNull();
    await act(async () => p.launchers()[0]!.click());
    expect(p.loads).toHaveLength(1);
    await p.arrive();
    expect(p.root.querySelector("[role=dialog]")).not.toBeNull();
  });

  it("a chat this tab holds loads the app at once; meanwhile the launcher shows with the loading indicator, as React's while the chat resumes", async () => {
    const p = facadePage({ chatExists: true });
    expect(p.loads).toHaveLength(1);
    const [painted] = p.launchers();
    expect(painted!.className).toBe("launcher appear");
    expect(p.loading()).not.toBeNull();
    // The host's open() shows that chat: none is begun beside it.
    p.el.open();
    expect(p.h.gateway.startChat).not.toHaveBeenCalled();
    await p.arrive();
    // React took over and ran the open() it held.
    expect(painted!.isConnected).toBe(false);
    expect(p.loading()).toBeNull();
    expect(p.root.querySelector("[role=dialog]")).not.toBeNull();
  });

  it("a chat this tab holds with messages unread: the painted launcher has React's badge and name", () => {
    const p = facadePage({ chatExists: true, unread: 120 });
    const [painted] = p.launchers();
    expect(painted!.getAttribute("aria-label")).toBe("Ouvrir le chat, 120 messages non lus");
    expect(painted!.querySelector(".badge")!.textContent).toBe("99+");
    expect(painted!.querySelector(".badge")!.getAttribute("aria-hidden")).toBe("true");
  });

  it("a chat this tab holds whose app cannot be loaded: the launcher stays without the loading indicator, and a click tries again", async () => {
    const p = facadePage({ chatExists: true });
    await p.arrive(null);
    expect(p.launchers()).toHaveLength(1);
    expect(p.loading()).toBeNull();
    await act(async () => p.launchers()[0]!.click());
    expect(p.loads).toHaveLength(1);
  });

  it("forget() before the app forgets the remembered chat at once and loads nothing", async () => {
    const p = facadePage();
    p.el.forget();
    expect(p.forget).toHaveBeenCalledTimes(1);
    expect(p.loads).toHaveLength(0);
    expect(p.el.unreadCount).toBe(0);
  });

  it("with the launcher hidden nothing is painted; the host's open() shows the loading indicator alone, then the window", async () => {
    const p = facadePage({ hidden: true });
    expect(p.launchers()).toHaveLength(0);
    expect(p.loads).toHaveLength(0);
    await act(async () => p.el.open());
    expect(p.loading()!.className).toBe("loading-indicator alone");
    await p.arrive();
    expect(p.root.querySelector("[role=dialog]")).not.toBeNull();
    expect(p.root.querySelectorAll(".cw")).toHaveLength(1);
  });

  it("taken off the page while the app loads: it mounts when the element is back, the click kept", async () => {
    const p = facadePage();
    await act(async () => p.launchers()[0]!.click());
    p.el.remove();
    await p.arrive();
    expect(p.root.querySelector("[role=dialog]")).toBeNull();
    await act(async () => document.body.append(p.el));
    await p.arrive();
    expect(p.root.querySelector("[role=dialog]")).not.toBeNull();
    expect(p.h.adapter.connections).toHaveLength(1);
  });
});
