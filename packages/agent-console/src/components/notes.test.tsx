import type { Note } from "@chat-widget/protocol";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newChatState, withItems } from "../state/chat-state.js";
import { chatInfo, customerMessage } from "../test-support/items.js";
import { Composer } from "./Composer.js";
import { Transcript } from "./Transcript.js";

afterEach(cleanup);

const note = (id: string, body: string, at: string): Note => ({
  NoteId: id,
  ContactId: "c1",
  AdvisorId: "a",
  AdvisorName: "Sam",
  Body: body,
  CreatedAt: at,
  Mentions: [],
});

describe("the composer's Reply and Note (issue 60)", () => {
  function composer(noteResult = true) {
    const send = vi.fn(async () => true);
    const typing = vi.fn();
    const saveNote = vi.fn(async () => noteResult);
    render(
      <Composer disabled={false} send={send} typing={typing} attach={() => {}} note={saveNote} />,
    );
    return { send, typing, saveNote };
  }

  it("switches to Note: the note is kept for advisors, not sent, no typing told, nothing attached", async () => {
    const { send, typing, saveNote } = composer();
    const reply = screen.getByRole("button", { name: "Reply" });
    const noteMode = screen.getByRole("button", { name: "Note" });
    expect(reply.getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(noteMode);
    expect(noteMode.getAttribute("aria-pressed")).toBe("true");
    const box = screen.getByRole("textbox", { name: "Note" });
    expect(screen.queryByRole("button", { name: "Attach file" })).toBeNull();
    fireEvent.change(box, { target: { value: "Refund approved @kim" } });
    expect(typing).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(saveNote).toHaveBeenCalledWith("Refund approved @kim"));
    expect(send).not.toHaveBeenCalled();
    expect((box as HTMLTextAreaElement).value).toBe("");

    fireEvent.click(reply);
    const message = screen.getByRole("textbox", { name: "Message" });
    fireEvent.change(message, { target: { value: "Your refund is on its way" } });
    expect(typing).toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(send).toHaveBeenCalledWith("Your refund is on its way"));
    expect(saveNote).toHaveBeenCalledTimes(1);
  });

  it("keeps a note that was not saved in the box", async () => {
    const { saveNote } = composer(false);
    fireEvent.click(screen.getByRole("button", { name: "Note" }));
    const box = screen.getByRole("textbox", { name: "Note" });
    fireEvent.change(box, { target: { value: "Keep me" } });
    fireEvent.click(screen.getByRole("button", { name: "Add note" }));
    await waitFor(() => expect(saveNote).toHaveBeenCalled());
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe("Keep me"));
  });

  it("offers no Note without a place to keep it", () => {
    render(
      <Composer disabled={false} send={async () => true} typing={() => {}} attach={() => {}} />,
    );
    expect(screen.queryByRole("button", { name: "Note" })).toBeNull();
  });
});

describe("notes in the transcript", () => {
  it("stand among the messages by time, set apart and named as notes", () => {
    const first = {
      ...customerMessage("m1", "Where is my order?"),
      AbsoluteTime: "2026-01-16T10:00:00.000Z",
    };
    const second = {
      ...customerMessage("m2", "Any news?"),
      AbsoluteTime: "2026-01-16T10:02:00.000Z",
    };
    const chat = withItems(newChatState(chatInfo()), [first, second], true);
    render(
      <Transcript
        chat={chat}
        notes={[note("n1", "Checked: it left the warehouse", "2026-01-16T10:01:00.000Z")]}
        download={() => {}}
        retry={() => {}}
      />,
    );
    const entries = [...document.querySelectorAll(".transcript li")].map((li) => li.className);
    expect(entries).toEqual(["message customer", "note-item", "message customer"]);
    expect(document.querySelector(".note-item")!.textContent).toMatch(
      /^Note · Sam.*Checked: it left the warehouse$/,
    );
  });
});
