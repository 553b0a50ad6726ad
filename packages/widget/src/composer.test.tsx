import { ContentType } from "@chat-widget/protocol";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { botMessage, event } from "./test-support/fakes.js";
import { advance, flush, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const type = (el: HTMLTextAreaElement, value: string) =>
  fireEvent.change(el, { target: { value } });
const enter = (el: HTMLTextAreaElement, shiftKey = false) =>
  fireEvent.keyDown(el, { key: "Enter", shiftKey });

describe("composer", () => {
  it("sending trims the message; an empty result is not sent", async () => {
    const w = renderWidget();
    await w.open();
    type(w.textbox(), "   \n  ");
    enter(w.textbox());
    await flush();
    expect(w.adapter.last.sent).toEqual([]);
    type(w.textbox(), "  Hello there \n");
    enter(w.textbox());
    await flush();
    expect(w.adapter.last.sent).toEqual([
      { content: "Hello there", contentType: ContentType.TEXT_PLAIN },
    ]);
    expect(screen.getByText("Hello there").className).toBe("message outgoing");
  });

  it("Enter without shift sends and clears the box; shift+Enter adds a newline", async () => {
    const w = renderWidget();
    await w.open();
    type(w.textbox(), "line one");
    const shiftEnter = enter(w.textbox(), true);
    expect(shiftEnter).toBe(true); // not prevented: the browser inserts the newline
    expect(w.adapter.last.sent).toEqual([]);
    type(w.textbox(), "line one\nline two");
    const plainEnter = enter(w.textbox());
    expect(plainEnter).toBe(false); // prevented: no newline
    await flush();
    expect(w.adapter.last.sent.map((s) => s.content)).toEqual(["line one\nline two"]);
    expect(w.textbox().value).toBe("");
  });

  it("the send button sends and clears the box", async () => {
    const w = renderWidget();
    await w.open();
    type(w.textbox(), "Hi");
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    await flush();
    expect(w.adapter.last.sent.map((s) => s.content)).toEqual(["Hi"]);
    expect(w.textbox().value).toBe("");
  });

  it("the composer and send button are disabled when the chat is not active or the bot is active, with the three placeholders", async () => {
    const w = renderWidget();
    await w.open();
    const send = () => screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement;
    expect([w.textbox().disabled, send().disabled, w.textbox().placeholder]).toEqual([
      false,
      false,
      "Type here...",
    ]);
    await w.receive(botMessage("menu"));
    expect([w.textbox().disabled, send().disabled, w.textbox().placeholder]).toEqual([
      true,
      true,
      "Select an option from above",
    ]);
    await w.receive(event(ContentType.CHAT_ENDED, { ParticipantRole: "SYSTEM" }));
    expect([w.textbox().disabled, send().disabled, w.textbox().placeholder]).toEqual([
      true,
      true,
      "",
    ]);
  });

  it("a message shows at once as sending; once stored the state goes", async () => {
    const w = renderWidget();
    await w.open();
    let release: () => void = () => {};
    const send = w.adapter.last.sendMessage.bind(w.adapter.last);
    w.adapter.last.sendMessage = (...args) =>
      new Promise((resolve) => (release = () => resolve(send(...args))));
    type(w.textbox(), "on its way");
    enter(w.textbox());
    await flush();
    expect(screen.getByText("on its way").className).toBe("message outgoing");
    expect(screen.getByText("Sending…")).toBeTruthy();
    release();
    await flush();
    expect(screen.queryByText("Sending…")).toBeNull();
    expect(screen.getByText("on its way").className).toBe("message outgoing");
  });

  it("the visitor's last stored message shows Sent, then Delivered and Read as the advisor's receipts come (issue 24)", async () => {
    const w = renderWidget();
    await w.open();
    type(w.textbox(), "first");
    enter(w.textbox());
    await flush();
    type(w.textbox(), "second");
    enter(w.textbox());
    await flush();
    expect(screen.getAllByText("Sent")).toHaveLength(1);
    const second = screen.getByText("second");
    expect(second.nextElementSibling?.textContent).toBe("Sent");
    const receipt = (kind: "ReadTimestamp" | "DeliveredTimestamp") =>
      act(() =>
        w.adapter.last.handlers.onReceipt({
          Id: `r-${kind}`,
          Type: "MESSAGEMETADATA",
          AbsoluteTime: "2026-11-25T10:00:01.000Z",
          MessageMetadata: {
            MessageId: "sent-2",
            Receipts: [{ [kind]: "2026-11-25T10:00:01.000Z", RecipientParticipantId: "a" }],
          },
        }),
      );
    receipt("DeliveredTimestamp");
    expect(second.nextElementSibling?.textContent).toBe("Delivered");
    receipt("ReadTimestamp");
    expect(second.nextElementSibling?.textContent).toBe("Read");
    expect(screen.getAllByText(/^(Sent|Delivered|Read)$/)).toHaveLength(1);
  });

  it("a message refused for good is kept with 'Not sent' and Retry ('Unable to send message' logged); Retry sends it again with the same ClientToken", async () => {
    const w = renderWidget();
    await w.open();
    w.adapter.last.failSend = true;
    type(w.textbox(), "keep me");
    enter(w.textbox());
    await flush();
    expect(w.logger.error).toHaveBeenCalledWith("Unable to send message", expect.any(Error));
    expect(screen.getByText("keep me").className).toBe("message outgoing");
    expect(screen.getByRole("alert").textContent).toBe("Not sentRetry");
    w.adapter.last.failSend = false;
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await flush();
    expect(screen.queryByText("Not sent")).toBeNull();
    expect(w.adapter.last.sent.map((m) => m.content)).toEqual(["keep me"]);
    const [first, second] = w.adapter.last.clientTokens;
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second).toBe(first);
    expect(screen.getAllByText("keep me")).toHaveLength(1);
  });

  it("any typed text triggers a typing event, throttled to one per 10 seconds", async () => {
    const w = renderWidget();
    await w.open();
    type(w.textbox(), "H");
    type(w.textbox(), "He");
    expect(w.adapter.last.typingEvents()).toHaveLength(1);
    await advance(9999);
    type(w.textbox(), "Hel");
    expect(w.adapter.last.typingEvents()).toHaveLength(1);
    await advance(1);
    type(w.textbox(), "Hell");
    expect(w.adapter.last.typingEvents()).toHaveLength(2);
    await advance(10_000);
    type(w.textbox(), "");
    expect(w.adapter.last.typingEvents()).toHaveLength(2);
  });

  it("near the 1,024-character limit a counter shows the length; a longer message is kept in the box, not sent", async () => {
    const w = renderWidget();
    await w.open();
    type(w.textbox(), "x".repeat(923));
    expect(screen.queryByRole("status", { name: /characters/ })).toBeNull();
    type(w.textbox(), "x".repeat(924));
    expect(screen.getByRole("status", { name: "924 / 1024 characters" }).textContent).toBe(
      "924/1024",
    );
    type(w.textbox(), `  ${"x".repeat(1024)}  `);
    enter(w.textbox());
    await flush();
    expect(w.adapter.last.sent).toHaveLength(1);
    type(w.textbox(), "y".repeat(1025));
    const counter = screen.getByRole("status", { name: "1025 / 1024 characters" });
    expect(counter.textContent).toBe("Too long to send · 1025/1024");
    expect(w.textbox().getAttribute("aria-invalid")).toBe("true");
    enter(w.textbox());
    await flush();
    expect(w.adapter.last.sent).toHaveLength(1);
    expect(w.textbox().value).toBe("y".repeat(1025));
    expect(screen.getByRole("button", { name: "Send message" }).hasAttribute("disabled")).toBe(
      true,
    );
    type(w.textbox(), "y".repeat(1000));
    enter(w.textbox());
    await flush();
    expect(w.adapter.last.sent).toHaveLength(2);
    expect(w.textbox().value).toBe("");
  });
});
