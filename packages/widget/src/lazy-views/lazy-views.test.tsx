import { ContentType } from "@chat-widget/protocol";
import { act, cleanup, render, screen } from "@testing-library/react";
import { ChatWidget } from "../ChatWidget.js";
import * as react from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TextsContext } from "../texts-context.js";
import {
  CHAT,
  advisorFile,
  agentMessage,
  botMessage,
  event,
  fakeLogger,
  listPicker,
  makeDeps,
} from "../test-support/fakes.js";
import { flush, renderWidget } from "../test-support/render.js";
import { SHARED_GLOBAL, VIEWS_GLOBAL } from "./contract.js";
import type { LazyViews } from "./contract.js";
import * as views from "./entry.js";
import { loadViewsScript, VIEWS_LOAD_FAILED, viewsScriptUrl } from "./loader.js";
import { lazyViews } from "./source.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A loader the test answers: each call waits for `answer(module or null)`. */
function controlledLoader() {
  const answers: ((module: LazyViews | null) => void)[] = [];
  const load = vi.fn(
    () => new Promise<LazyViews | null>((resolve) => answers.push((m) => resolve(m))),
  );
  const answer = async (module: LazyViews | null) => {
    await act(async () => answers.shift()!(module));
    await flush();
  };
  return { load, answer };
}

describe("the rare views' source", () => {
  it("loads once however often asked; listeners hear when the views arrive", async () => {
    const { load, answer } = controlledLoader();
    const source = lazyViews(load);
    const heard = vi.fn();
    source.subscribe(heard);
    source.load();
    source.load();
    expect(load).toHaveBeenCalledTimes(1);
    expect(source.current()).toBeNull();
    await answer(views);
    expect(source.current()).toBe(views);
    expect(heard).toHaveBeenCalledTimes(1);
    source.load();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("a failed load leaves the fallbacks and the next load tries again", async () => {
    const { load, answer } = controlledLoader();
    const source = lazyViews(load);
    source.load();
    await answer(null);
    expect(source.current()).toBeNull();
    source.load();
    expect(load).toHaveBeenCalledTimes(2);
    await answer(views);
    expect(source.current()).toBe(views);
  });
});

describe("the window before and after chat-views.js arrives", () => {
  it("is asked for once a chat exists, not at page load; markdown shows as its text and an attachment as its name until then", async () => {
    const { load, answer } = controlledLoader();
    const w = renderWidget({ deps: { views: lazyViews(load) } });
    await flush();
    expect(load).not.toHaveBeenCalled();
    await w.open();
    expect(load).toHaveBeenCalledTimes(1);
    await w.receive(agentMessage("**Hello** there", { ContentType: ContentType.TEXT_MARKDOWN }));
    await w.receive(advisorFile("att-1", "plan.pdf", "application/pdf"));
    expect(screen.getByText("**Hello** there").className).toBe("plain");
    expect(screen.queryByRole("button", { name: "plan.pdf" })).toBeNull();
    expect(screen.getByText("plan.pdf")).toBeTruthy();

    await answer(views);
    expect(screen.getByText("Hello").tagName).toBe("STRONG");
    expect(screen.getByRole("button", { name: "plan.pdf" })).toBeTruthy();
    const styles = [...w.view.container.querySelectorAll("style")].map((s) => s.textContent);
    expect(styles).toContain(views.viewStyles);
  });

  it("after the advisor ends the chat a new chat is offered at once, keeping focus; the transcript once the views have loaded", async () => {
    const { load, answer } = controlledLoader();
    const w = renderWidget({ deps: { views: lazyViews(load) } });
    await w.open();
    w.textbox().focus();
    await w.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT" }));
    const newChat = screen.getByRole("button", { name: "Start a new chat" });
    expect(screen.queryByRole("button", { name: "Download transcript" })).toBeNull();
    expect(document.activeElement).toBe(newChat);
    await answer(views);
    expect(screen.getByRole("button", { name: "Download transcript" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Start a new chat" })).toBe(newChat);
    expect(document.activeElement).toBe(newChat);
  });
  it("a bot's choice that came before the views shows once they load, and takes focus then", async () => {
    const { load, answer } = controlledLoader();
    const w = renderWidget({ deps: { views: lazyViews(load) } });
    await w.open();
    await w.receive(botMessage("menu"));
    await w.receive(listPicker("How can we help?", ["Order status", "Returns"]));
    expect(screen.queryByRole("button", { name: "Order status" })).toBeNull();
    await answer(views);
    const first = screen.getByRole("button", { name: "Order status" });
    expect(document.activeElement).toBe(first);
  });
});

describe("the widget's styles under a page's CSP", () => {
  it("carry the script tag's nonce, the rare views' too", () => {
    const w = renderWidget({ deps: { nonce: "n0nce" } });
    const nonces = [...w.view.container.querySelectorAll("style")].map((s) =>
      s.getAttribute("nonce"),
    );
    expect(nonces).toEqual(["n0nce", "n0nce"]);
  });
});

describe("a resumed chat", () => {
  it("asks for the views even while it stays minimised (for the unread alerts)", async () => {
    const { load } = controlledLoader();
    const h = makeDeps({ views: lazyViews(load) });
    h.storage.value = { chat: CHAT, visible: false };
    render(<ChatWidget deps={h.deps} />);
    await flush();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe("loading chat-views.js", () => {
  interface FakeScript {
    src?: string;
    nonce?: string;
    onload?: () => void;
    onerror?: () => void;
  }
  const fakeDocument = () => {
    const appended: FakeScript[] = [];
    const doc = {
      createElement: () => ({}) as FakeScript,
      head: { appendChild: (s: FakeScript) => appended.push(s) },
    } as unknown as Document;
    return { doc, appended };
  };

  it("sits beside the widget script; its URL carries the version the build gave it", () => {
    expect(viewsScriptUrl("https://cc.example/widget/chat-widget.js")).toBe(
      "https://cc.example/widget/chat-views.js",
    );
    expect(viewsScriptUrl("https://cc.example/widget/chat-widget.js", "0a1b2c")).toBe(
      "https://cc.example/widget/chat-views.js?v=0a1b2c",
    );
  });

  it("shares the widget's React, JSX runtime and texts context before the script runs", async () => {
    const host: Record<string, unknown> = {};
    const { doc, appended } = fakeDocument();
    const loading = loadViewsScript(
      "https://cc.example/widget/chat-views.js",
      doc,
      host,
      fakeLogger(),
    );
    const shared = host[SHARED_GLOBAL] as Record<string, Record<string, unknown>>;
    expect(shared.react!.createElement).toBe(react.createElement);
    expect(shared.textsContext!.TextsContext).toBe(TextsContext);
    expect(shared.jsxRuntime!.jsx).toBeTypeOf("function");
    expect(appended.map((s) => s.src)).toEqual(["https://cc.example/widget/chat-views.js"]);
    host[VIEWS_GLOBAL] = views;
    appended[0]!.onload?.();
    expect(await loading).toBe(views);
  });

  it("carries the widget script's CSP nonce", () => {
    const { doc, appended } = fakeDocument();
    void loadViewsScript("https://cc.example/widget/chat-views.js", doc, {}, fakeLogger(), "n0nce");
    void loadViewsScript("https://cc.example/widget/chat-views.js", doc, {}, fakeLogger());
    expect(appended.map((s) => s.nonce)).toEqual(["n0nce", undefined]);
  });

  it("a script that fails to load is logged and gives null", async () => {
    const logger = fakeLogger();
    const { doc, appended } = fakeDocument();
    const loading = loadViewsScript("http://127.0.0.1:9/chat-views.js", doc, {}, logger);
    appended[0]!.onerror?.();
    expect(await loading).toBeNull();
    expect(logger.warn).toHaveBeenCalledWith(VIEWS_LOAD_FAILED, "http://127.0.0.1:9/chat-views.js");
  });

  it("page elements named like its globals (DOM clobbering) are replaced by the real modules; a first widget copy's shared React stays", async () => {
    const clobbered = document.createElement("form");
    clobbered.id = SHARED_GLOBAL;
    clobbered.innerHTML = '<input name="react"><input name="jsxRuntime">';
    const fakeViews = document.createElement("a");
    fakeViews.id = VIEWS_GLOBAL;
    const host: Record<string, unknown> = { [SHARED_GLOBAL]: clobbered, [VIEWS_GLOBAL]: fakeViews };
    const { doc, appended } = fakeDocument();
    const loading = loadViewsScript(
      "https://cc.example/widget/chat-views.js",
      doc,
      host,
      fakeLogger(),
    );
    expect((host[SHARED_GLOBAL] as { react: unknown }).react).toBe(react);
    expect(appended).toHaveLength(1);
    host[VIEWS_GLOBAL] = views;
    appended[0]!.onload?.();
    expect(await loading).toBe(views);

    const first = { react: { createElement: () => null } };
    const withFirstCopy: Record<string, unknown> = { [SHARED_GLOBAL]: first };
    void loadViewsScript(
      "https://cc.example/widget/chat-views.js",
      doc,
      withFirstCopy,
      fakeLogger(),
    );
    expect(withFirstCopy[SHARED_GLOBAL]).toBe(first);
  });
});
