import { ContentType } from "@chat-widget/protocol";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { agentMessage, event } from "./test-support/fakes.js";
import { flush, renderWidget } from "./test-support/render.js";
import { savedFiles } from "./test-support/saved-files.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const focused = () => document.activeElement;
const button = (name: string) => screen.getByRole("button", { name });
const question = () => screen.queryByRole("alertdialog", { name: "End this chat?" });

describe("ending a chat (issue 24)", () => {
  it("the close icon asks first: 'End this chat?' with End chat and Cancel, focus on Cancel; Cancel keeps the chat and gives focus back to the close icon", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("Hello"));
    fireEvent.click(screen.getByTitle("Close chat window"));
    expect(question()!.textContent).toContain("End this chat?");
    expect(focused()).toBe(button("Cancel"));
    fireEvent.click(button("Cancel"));
    expect(question()).toBeNull();
    expect(focused()).toBe(screen.getByTitle("Close chat window"));
    expect(w.adapter.last.disconnects).toBe(0);
    expect(screen.getByText("Hello")).toBeTruthy();
    expect(w.textbox().disabled).toBe(false);
    expect(w.storage.value).not.toBeNull();
  });

  it("Escape in the question cancels it and leaves the window open", async () => {
    const w = renderWidget();
    await w.open();
    fireEvent.click(screen.getByTitle("Close chat window"));
    fireEvent.keyDown(button("Cancel"), { key: "Escape" });
    expect(question()).toBeNull();
    expect(screen.getByRole("dialog")).toBeTruthy();
    expect(w.adapter.last.disconnects).toBe(0);
  });

  it("End chat does what the spec's Close does: disconnect, hide, forget the chat", async () => {
    const w = renderWidget();
    await w.open();
    w.end();
    await flush();
    expect(w.adapter.last.disconnects).toBe(1);
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(w.storage.value).toBeNull();
    expect(focused()).toBe(w.launcher());
  });

  it("a chat already over closes at once, without asking", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT" }));
    fireEvent.click(screen.getByTitle("Close chat window"));
    expect(question()).toBeNull();
    await flush();
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("once the advisor ends the chat the window offers 'Start a new chat' and 'Download transcript'; none while it goes on", async () => {
    const w = renderWidget();
    await w.open();
    expect(screen.queryByRole("button", { name: "Start a new chat" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Download transcript" })).toBeNull();
    w.textbox().focus();
    await w.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT" }));
    expect(button("Start a new chat")).toBeTruthy();
    expect(button("Download transcript")).toBeTruthy();
    // The composer went disabled under the keyboard: focus moves to the new chat.
    expect(focused()).toBe(button("Start a new chat"));
  });

  it("also once the connection is broken for good", async () => {
    const w = renderWidget();
    await w.open();
    act(() => w.adapter.last.handlers.onConnectionBroken());
    await flush();
    expect(button("Start a new chat")).toBeTruthy();
  });

  it("'Start a new chat' starts another chat with an empty transcript, without disconnecting the ended one", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("Old chat"));
    await w.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT" }));
    fireEvent.click(button("Start a new chat"));
    await flush();
    expect(w.gateway.startChat).toHaveBeenCalledTimes(2);
    expect(w.adapter.connections).toHaveLength(2);
    expect(w.adapter.connections[0]!.disconnects).toBe(0);
    expect(screen.getByRole("dialog")).toBeTruthy();
    expect(screen.queryByText("Old chat")).toBeNull();
    expect(w.textbox().disabled).toBe(false);
    expect(w.storage.value).not.toBeNull();
  });

  it("'Download transcript' saves chat-transcript.txt: each message with its time and who wrote it", async () => {
    const files = savedFiles();
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage("Your parcel left today", { DisplayName: "Sam" }));
    fireEvent.change(w.textbox(), { target: { value: "Thank you" } });
    fireEvent.keyDown(w.textbox(), { key: "Enter" });
    await flush();
    await w.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "AGENT" }));
    fireEvent.click(button("Download transcript"));
    expect(files).toHaveLength(1);
    expect(files[0]!.name).toBe("chat-transcript.txt");
    expect(files[0]!.blob.type).toBe("text/plain;charset=utf-8");
    const lines = (await files[0]!.blob.text()).trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\[.+\] Sam: Your parcel left today$/);
    expect(lines[1]).toMatch(/^\[.+\] You: Thank you$/);
    expect(lines.at(-1)).toMatch(/Chat has ended!$/);
  });
});
