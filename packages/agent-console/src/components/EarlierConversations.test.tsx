import { ItemType, type EarlierConversation, type Item } from "@chat-widget/protocol";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentApiError } from "../api/errors.js";
import { advisorMessage, customerMessage } from "../test-support/items.js";
import { EarlierConversations } from "./EarlierConversations.js";
import type { VisitorReads } from "./visitor-reads.js";

afterEach(cleanup);

const past: EarlierConversation[] = [
  {
    ContactId: "old-2",
    StartedAt: "2026-01-10T09:00:00.000Z",
    EndedAt: "2026-01-10T09:20:00.000Z",
    AdvisorName: "Kim",
    FirstLine: "Where is my refund?",
  },
  {
    ContactId: "old-1",
    StartedAt: "2026-01-02T09:00:00.000Z",
    EndedAt: "2026-01-02T09:05:00.000Z",
  },
];

const attachment: Item = {
  ...customerMessage("a1", "", "old-2"),
  Type: ItemType.ATTACHMENT,
  Attachments: [
    {
      AttachmentId: "f1",
      AttachmentName: "receipt.pdf",
      ContentType: "application/pdf",
      Status: "APPROVED",
    },
  ],
};

function reads(overrides: Partial<VisitorReads> = {}) {
  return {
    visitor: vi.fn(),
    earlier: vi.fn(async () => ({ Conversations: past })),
    transcript: vi.fn(async (_id: string, after?: number) =>
      after === undefined
        ? {
            Items: [customerMessage("m1", "Where is my refund?", "old-2"), attachment],
            NextAfter: 2,
          }
        : { Items: [advisorMessage("m2", "It is on its way", "old-2")] },
    ),
    ...overrides,
  } satisfies VisitorReads;
}

describe("the visitor's earlier conversations", () => {
  it("lists each with date, advisor and first line; one opens read-only, every page of it", async () => {
    const r = reads();
    render(<EarlierConversations contactId="now" customerName="Ann" reads={r} />);
    expect(r.earlier).toHaveBeenCalledWith("now");
    const list = await screen.findByRole("list", { name: "Earlier conversations" });
    const buttons = within(list).getAllByRole("button");
    expect(buttons.map((b) => b.textContent)).toEqual([
      expect.stringMatching(/Jan 10, 2026.*Kim.*Where is my refund\?/),
      expect.stringMatching(/Jan 2, 2026.*No advisor.*No message/),
    ]);

    fireEvent.click(buttons[0]!);
    const dialog = await screen.findByRole("dialog", { name: /^Conversation of Jan 10, 2026/ });
    await within(dialog).findByText("It is on its way");
    expect(vi.mocked(r.transcript).mock.calls.map((c) => c.slice(0, 2))).toEqual([
      ["old-2", undefined],
      ["old-2", 2],
    ]);
    expect(within(dialog).getByText("Where is my refund?")).toBeTruthy();
    expect(within(dialog).getByText("Answered by Kim.", { exact: false })).toBeTruthy();
    // Read only: no composer, and attachments named but not offered for download.
    expect(within(dialog).getByText(/receipt\.pdf/)).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: /Download receipt/ })).toBeNull();
    expect(within(dialog).getByRole("button", { name: "Download transcript" })).toBeTruthy();
    expect(within(dialog).queryByRole("textbox")).toBeNull();

    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("says when there are none, and why a list or a conversation did not load", async () => {
    render(
      <EarlierConversations
        contactId="now"
        customerName="Ann"
        reads={reads({ earlier: vi.fn(async () => ({ Conversations: [] })) })}
      />,
    );
    expect(await screen.findByText("None.")).toBeTruthy();
    cleanup();

    render(
      <EarlierConversations
        contactId="now"
        customerName="Ann"
        reads={reads({
          earlier: vi.fn(async () => {
            throw new AgentApiError("ThrottlingException", "Rate exceeded", 429);
          }),
        })}
      />,
    );
    expect((await screen.findByRole("alert")).textContent).toBe("Rate exceeded");
    cleanup();

    render(
      <EarlierConversations
        contactId="now"
        customerName="Ann"
        reads={reads({
          transcript: vi.fn(async () => {
            throw new AgentApiError("ResourceNotFoundException", "Contact old-2 is gone.", 404);
          }),
        })}
      />,
    );
    fireEvent.click((await screen.findAllByRole("button"))[0]!);
    const dialog = await screen.findByRole("dialog");
    expect((await within(dialog).findByRole("alert")).textContent).toContain(
      "Contact old-2 is gone.",
    );
  });
});
