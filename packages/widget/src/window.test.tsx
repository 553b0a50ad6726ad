import { ContentType } from "@chat-widget/protocol";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createClientAdapter } from "./chat/client-adapter.js";
import { readSettings } from "./settings.js";
import { fakeChatSession } from "./test-support/chat-session.js";
import { agentMessage, event, fakeLogger } from "./test-support/fakes.js";
import { flush, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("colour scheme (issue 24)", () => {
  it("the root follows the system by default, or carries the scheme the host chose", () => {
    const root = (w: ReturnType<typeof renderWidget>) =>
      w.view.container.querySelector(".cw")!.className;
    expect(root(renderWidget())).toBe("cw auto");
    cleanup();
    expect(root(renderWidget({ deps: { colorScheme: "dark" } }))).toBe("cw dark");
    cleanup();
    expect(root(renderWidget({ deps: { colorScheme: "light" } }))).toBe("cw light");
  });
});

describe("chat window", () => {
  it("the header has a minimise icon titled 'Minimise chat window' and a close icon titled 'Close chat window'", async () => {
    const w = renderWidget();
    await w.open();
    expect(screen.getByTitle("Minimise chat window").tagName).toBe("BUTTON");
    expect(screen.getByTitle("Close chat window").tagName).toBe("BUTTON");
    expect(screen.getByRole("img", { name: "Logo" }).className).toBe("logo");
  });

  it("minimise: window hides, chat stays active", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("Hello"));
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(w.adapter.last.disconnects).toBe(0);
    expect(w.storage.value?.visible).toBe(false);
    fireEvent.click(w.launcher());
    expect(screen.getByText("Hello")).toBeTruthy();
    expect(w.textbox().disabled).toBe(false);
  });

  it("close: loading on, hide, inactive, disconnect the participant, clear the transcript, loading off", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("Hello"));
    let release: () => void = () => {};
    w.adapter.last.disconnect = vi.fn(() => new Promise<void>((r) => (release = r)));
    w.end();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByRole("status", { name: "Loading" })).toBeTruthy();
    expect(w.adapter.last.disconnect).toHaveBeenCalledTimes(1);
    await act(async () => release());
    await flush();
    expect(screen.queryByRole("status", { name: "Loading" })).toBeNull();
    expect(w.storage.value).toBeNull();
    // A new click starts a new chat with an empty transcript.
    await w.open();
    expect(w.gateway.startChat).toHaveBeenCalledTimes(2);
    expect(screen.queryByText("Hello")).toBeNull();
  });

  it("close does not disconnect the participant when the chat has ended", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "SYSTEM" }));
    fireEvent.click(screen.getByTitle("Close chat window"));
    await flush();
    expect(w.adapter.connections[0]!.disconnects).toBe(0);
  });

  it("close does not disconnect the participant when it is no longer connected (connection broken)", async () => {
    const w = renderWidget();
    await w.open();
    act(() => w.adapter.last.handlers.onConnectionBroken());
    await flush();
    expect(w.adapter.last.disconnects).toBe(1);
    fireEvent.click(screen.getByTitle("Close chat window"));
    await flush();
    expect(w.adapter.connections[0]!.disconnects).toBe(1);
  });

  it("connection broken: disconnect the participant if not already ended or disconnected", async () => {
    const w = renderWidget();
    await w.open();
    act(() => w.adapter.last.handlers.onConnectionBroken());
    await flush();
    expect(w.adapter.last.disconnects).toBe(1);
    expect(w.textbox().disabled).toBe(true);
    act(() => w.adapter.last.handlers.onConnectionBroken());
    await flush();
    expect(w.adapter.last.disconnects).toBe(1);
  });

  it("a chat whose connection broke stays forgotten: a send that fails afterwards does not store it again", async () => {
    const w = renderWidget();
    await w.open();
    const connection = w.adapter.last;
    let refuse: (error: Error) => void = () => {};
    connection.sendMessage = vi.fn(
      () => new Promise<never>((_resolve, reject) => (refuse = reject)),
    );
    fireEvent.change(w.textbox(), { target: { value: "Still there?" } });
    fireEvent.keyDown(w.textbox(), { key: "Enter" });
    await flush();
    expect(w.storage.value).toMatchObject({ unsent: [{ content: "Still there?" }] });
    act(() => connection.handlers.onConnectionBroken());
    await flush();
    expect(w.storage.value).toBeNull();
    await act(async () => refuse(new Error("connection broken")));
    await flush();
    expect(w.storage.value).toBeNull();
    expect(screen.getByText("Not sent")).toBeTruthy();
  });

  it("connection broken after the chat ended does not disconnect", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "SYSTEM" }));
    act(() => w.adapter.last.handlers.onConnectionBroken());
    await flush();
    expect(w.adapter.last.disconnects).toBe(0);
  });

  it("incoming chat-ended event from a non-customer: chat becomes inactive (input disabled)", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(
      event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT", DisplayName: "Sam" }),
    );
    expect(w.textbox().disabled).toBe(true);
    expect(w.textbox().placeholder).toBe("");
    expect(
      (screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(screen.getByText("Chat has ended!")).toBeTruthy();
  });

  it("a chat-ended event from the customer does not make the chat inactive", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "CUSTOMER" }));
    expect(w.textbox().disabled).toBe(false);
  });

  it("with the real client adapter: an incoming chat-ended event from the customer leaves the chat active; from a non-customer the chat becomes inactive", async () => {
    const client = fakeChatSession();
    const settings = readSettings(
      { src: "http://127.0.0.1:8080/widget/chat-widget.js", dataset: {} },
      "http://127.0.0.1:8080/",
    );
    const adapter = createClientAdapter(client.ChatSession, settings, fakeLogger());
    const w = renderWidget({ deps: { adapter } });
    await w.open();
    act(() =>
      client.endChat(event(ContentType.CHAT_ENDED, { Id: "end-1", ParticipantRole: "CUSTOMER" })),
    );
    await flush();
    expect(w.textbox().disabled).toBe(false);
    expect(w.storage.value).not.toBeNull();
    w.end();
    await flush();
    expect(client.session.disconnectParticipant).toHaveBeenCalledTimes(1);
    await w.open();
    act(() => client.endChat(event(ContentType.CHAT_ENDED, { Id: "end-2" })));
    await flush();
    expect(w.textbox().disabled).toBe(true);
    expect(w.storage.value).toBeNull();
  });
});
