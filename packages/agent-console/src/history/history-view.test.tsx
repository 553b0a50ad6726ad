import type { HistoryConversation, HistoryQuery } from "@chat-widget/protocol";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentApiError } from "../api/errors.js";
import { advisorMessage, customerMessage } from "../test-support/items.js";
import { HistoryView } from "./HistoryView.js";
import { transcriptText } from "./transcript-file.js";
import type { HistoryReads } from "./use-history.js";
import { parseRoute, routeHash } from "./use-route.js";

afterEach(cleanup);

const row = (n: number, extra: Partial<HistoryConversation> = {}): HistoryConversation => ({
  ContactId: `c${n}`,
  StartedAt: `2026-11-${String(10 + n).padStart(2, "0")}T09:00:00.000Z`,
  EndedAt: `2026-11-${String(10 + n).padStart(2, "0")}T09:30:00.000Z`,
  CustomerName: `Visitor ${n}`,
  Advisors: [{ AdvisorId: "sam", Name: "Sam" }],
  FirstLine: `Question ${n}`,
  Tags: [],
  ...extra,
});

function reads(pages: Record<string, { Conversations: HistoryConversation[]; Next?: string }>) {
  return {
    list: vi.fn(async (q: HistoryQuery) => pages[q.Before ?? "first"] ?? { Conversations: [] }),
    advisors: vi.fn(async () => ({
      Advisors: [
        { AdvisorId: "kim", Name: "Kim" },
        { AdvisorId: "sam", Name: "Sam" },
      ],
    })),
    transcript: vi.fn(async () => ({
      Items: [customerMessage("m1", "Where is it?"), advisorMessage("m2", "On its way")],
    })),
  } satisfies HistoryReads;
}

const rows = () =>
  within(screen.getByRole("list", { name: "Conversations" }))
    .getAllByRole("button")
    .map((b) => b.textContent);

describe("the History view (issue 60)", () => {
  it("lists the closed conversations and shows more on asking", async () => {
    const r = reads({
      first: { Conversations: [row(2, { CustomerEmail: "v2@example.com" }), row(1)], Next: "p2" },
      p2: { Conversations: [row(0, { Advisors: [] })] },
    });
    render(<HistoryView reads={r} open={null} show={() => {}} />);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[0]).toMatch(/Visitor 2 <v2@example.com>SamQuestion 2/);
    expect(screen.getByRole("status").textContent).toBe("2+ conversations");
    fireEvent.click(screen.getByRole("button", { name: "Show more" }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[2]).toMatch(/Visitor 0No advisorQuestion 0/);
    expect(r.list).toHaveBeenLastCalledWith({ Before: "p2" });
    expect(screen.queryByRole("button", { name: "Show more" })).toBeNull();
  });

  it("filters: dates as whole local days, the advisor, the visitor", async () => {
    const r = reads({ first: { Conversations: [row(1)] } });
    render(<HistoryView reads={r} open={null} show={() => {}} />);
    await screen.findByRole("option", { name: "Kim" });
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-11-01" } });
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "2026-11-30" } });
    fireEvent.change(screen.getByLabelText("Advisor"), { target: { value: "kim" } });
    fireEvent.change(screen.getByLabelText("Visitor"), { target: { value: " ada " } });
    fireEvent.change(screen.getByLabelText("Tag"), { target: { value: "Refund" } });
    fireEvent.click(screen.getByRole("button", { name: "Show conversations" }));
    await waitFor(() => expect(r.list).toHaveBeenCalledTimes(2));
    expect(r.list).toHaveBeenLastCalledWith({
      From: new Date(2026, 10, 1).toISOString(),
      To: new Date(2026, 11, 1).toISOString(),
      AdvisorId: "kim",
      Visitor: "ada",
      Tag: "Refund",
    });
  });

  it("Search conversations: the words go with the filters; each match is marked, the rest shown as text", async () => {
    const r = reads({
      first: {
        Conversations: [row(1, { Snippet: "left in the <mark>rain</mark> by <b>me</b>" })],
      },
    });
    render(<HistoryView reads={r} open={null} show={() => {}} />);
    fireEvent.change(screen.getByRole("searchbox", { name: "Search conversations" }), {
      target: { value: ' "in the rain" ' },
    });
    fireEvent.click(screen.getByRole("button", { name: "Show conversations" }));
    await waitFor(() => expect(r.list).toHaveBeenLastCalledWith({ Search: '"in the rain"' }));
    const marks = await screen.findAllByText("rain", { selector: "mark" });
    expect(marks).toHaveLength(1);
    expect(screen.getByText(/by <b>me<\/b>/)).toBeTruthy();
    expect(document.querySelector(".history-open b")).toBeNull();
  });

  it("says when nothing matches and when the list cannot be read", async () => {
    const r = reads({});
    render(<HistoryView reads={r} open={null} show={() => {}} />);
    expect(await screen.findByText("No closed conversation matches.")).toBeTruthy();
    r.list.mockRejectedValueOnce(new AgentApiError("x", "The server is down.", 503));
    fireEvent.click(screen.getByRole("button", { name: "Show conversations" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The conversations could not be loaded: The server is down.",
    );
  });

  it("a row asks for its address; the address opens it read-only, Close asks to leave it", async () => {
    const r = reads({ first: { Conversations: [row(1)] } });
    const show = vi.fn();
    const { rerender } = render(<HistoryView reads={r} open={null} show={show} />);
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(screen.getByRole("button", { name: /Visitor 1/ }));
    expect(show).toHaveBeenLastCalledWith("c1");
    rerender(<HistoryView reads={r} open="c1" show={show} />);
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Answered by Sam. Read only.")).toBeTruthy();
    await within(dialog).findByText("Where is it?");
    expect(within(dialog).getByRole("button", { name: "Download transcript" })).toBeTruthy();
    expect(r.transcript).toHaveBeenCalledWith("c1", undefined);
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(show).toHaveBeenLastCalledWith(null);
  });
});

describe("the console's address (issue 60)", () => {
  it("reads and writes the view and the open conversation", () => {
    expect(parseRoute("")).toEqual({ view: "chats" });
    expect(parseRoute("#/")).toEqual({ view: "chats" });
    expect(parseRoute("#/history")).toEqual({ view: "history", contactId: null });
    expect(parseRoute("#/history/a%2Fb")).toEqual({ view: "history", contactId: "a/b" });
    expect(parseRoute("#/history/%E0%A4%A")).toEqual({ view: "history", contactId: null });
    expect(parseRoute("#/elsewhere")).toEqual({ view: "chats" });
    expect(routeHash({ view: "history", contactId: "a/b" })).toBe("#/history/a%2Fb");
    expect(routeHash({ view: "chats" })).toBe("#/");
  });
});

describe("a conversation as a text file (issue 60)", () => {
  it("one line per message with its time and who wrote it", () => {
    const items = [
      { ...customerMessage("m1", "Where is it?"), AbsoluteTime: "2026-11-10T09:00:00.000Z" },
      { ...advisorMessage("m2", "On its way"), AbsoluteTime: "2026-11-10T09:01:00.000Z" },
    ];
    expect(transcriptText(items, "Ada")).toBe(
      "[2026-11-10 09:00:00 UTC] Ada: Where is it?\n" +
        `[2026-11-10 09:01:00 UTC] ${items[1]!.DisplayName}: On its way\n`,
    );
  });
});
