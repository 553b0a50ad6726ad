import { ContentType, type Item } from "@chat-widget/protocol";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { event, systemMessage } from "./test-support/fakes.js";
import { renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** An answer the assistant streams: chunks of the text so far (as the client stitches them), then the whole. */
function streamedAnswer(pieces: string[]) {
  const done = systemMessage(pieces.join(""), { DisplayName: "Shop assistant" });
  const chunk = (n: number): Item => ({
    ...done,
    Content: pieces.slice(0, n).join(""),
    MessageMetadata: { MessageId: done.Id, MessageCompleted: false, ChunkNumber: n },
  });
  const completed: Item = {
    ...done,
    MessageMetadata: { MessageId: done.Id, MessageCompleted: true },
  };
  return { chunk, completed, copy: done };
}

const incoming = () => [...document.querySelectorAll(".message.incoming")];
const delivered = (events: { contentType: string }[]) =>
  events.filter((e) => e.contentType === ContentType.DELIVERED_RECEIPT).length;

describe("a streamed answer (issue 26)", () => {
  it("grows in place, hidden from screen readers until complete; then shown once, with one receipt", async () => {
    const w = renderWidget();
    await w.open();
    const answer = streamedAnswer(["Returns are free ", "within 30 days", "."]);
    await w.receive(answer.chunk(1));
    expect(incoming().map((m) => m.textContent)).toEqual(["Returns are free "]);
    expect(incoming()[0]!.querySelector("[inert]")).not.toBeNull();
    await w.receive(answer.chunk(2));
    await w.receive(answer.chunk(3));
    expect(incoming().map((m) => m.textContent)).toEqual(["Returns are free within 30 days."]);
    expect(delivered(w.adapter.last.events)).toBe(0);

    await w.receive(answer.completed);
    expect(incoming().map((m) => m.textContent)).toEqual(["Returns are free within 30 days."]);
    expect(incoming()[0]!.querySelector("[inert]")).toBeNull();
    expect(delivered(w.adapter.last.events)).toBe(1);

    // After a reconnect: a late chunk and the transcript's copy change nothing.
    await w.receive(answer.chunk(3));
    await w.receive(answer.copy);
    expect(incoming().map((m) => m.textContent)).toEqual(["Returns are free within 30 days."]);
    expect(delivered(w.adapter.last.events)).toBe(1);
  });

  it("counts as one unread message, once complete, while the window is minimised", async () => {
    const w = renderWidget();
    await w.open();
    fireEvent.click(screen.getByTitle("Minimise chat window"));
    const answer = streamedAnswer(["We open ", "at nine."]);
    await w.receive(answer.chunk(1));
    await w.receive(answer.chunk(2));
    expect(w.launcher().getAttribute("aria-label") ?? w.launcher().textContent).not.toMatch(
      /unread/,
    );
    await w.receive(answer.completed);
    expect(screen.getByRole("button", { name: "Open chat, 1 unread message" })).toBeTruthy();
  });

  it("a chunk missed in a reconnect leaves the answer to its completed message: the whole text, shown once", async () => {
    const w = renderWidget();
    await w.open();
    const answer = streamedAnswer(["One, ", "two, ", "three."]);
    await w.receive(answer.chunk(1));
    // Chunks 2 and 3 were lost with the socket; the transcript brings the stored message.
    await w.receive(answer.copy);
    expect(incoming().map((m) => m.textContent)).toEqual(["One, two, three."]);
    expect(incoming()[0]!.querySelector("[inert]")).toBeNull();
  });

  it("a chat that ends in the middle of an answer leaves it as far as it came, readable by screen readers too", async () => {
    const w = renderWidget();
    await w.open();
    const answer = streamedAnswer(["We open ", "at nine."]);
    await w.receive(answer.chunk(1));
    await w.receive(event(ContentType.CHAT_ENDED));
    expect(incoming().map((m) => m.textContent)).toEqual(["We open "]);
    expect(incoming()[0]!.querySelector("[inert]")).toBeNull();
  });
});
