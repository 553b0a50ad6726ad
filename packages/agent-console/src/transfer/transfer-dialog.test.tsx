import type { TransferTargetsResponse } from "@chat-widget/protocol";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentApiError } from "../api/errors.js";
import { TransferDialog, type TransferAccess } from "./TransferDialog.js";

afterEach(cleanup);

const TARGETS: TransferTargetsResponse = {
  Advisors: [
    { AdvisorId: "kim-id", Name: "Kim", Username: "kim", Chats: 1, MaxChats: 10 },
    { AdvisorId: "max-id", Name: "Max", Username: "max", Chats: 2, MaxChats: 2 },
  ],
  Queue: "advisors",
};

function open(targets: Partial<TransferTargetsResponse> = {}) {
  const access: TransferAccess = {
    targets: vi.fn(async () => ({ ...TARGETS, ...targets })),
    transfer: vi.fn(async () => ({})),
  };
  const close = vi.fn();
  render(<TransferDialog contactId="c1" customerName="Alex" access={access} close={close} />);
  return { access, close };
}

describe("the Transfer dialog (issue 60)", () => {
  it("offers the available advisors with their load (a full one cannot be picked) and the queue", async () => {
    const { access } = open();
    expect(screen.getByRole("heading", { name: "Transfer the chat with Alex" })).toBeTruthy();
    const kim = (await screen.findByRole("radio", {
      name: "Kim 1 of 10 chats",
    })) as HTMLInputElement;
    const max = screen.getByRole("radio", { name: "Max 2 of 2 chats, full" }) as HTMLInputElement;
    const queue = screen.getByRole("radio", {
      name: /^The queue \(advisors\)/,
    }) as HTMLInputElement;
    expect([kim.disabled, max.disabled, queue.disabled]).toEqual([false, true, false]);
    expect(screen.getByRole("group", { name: "Transfer to" })).toBeTruthy();
    expect(access.targets).toHaveBeenCalledWith("c1");
  });

  it("asks for a choice, then hands the chat to the advisor with the note and closes", async () => {
    const { access, close } = open();
    await screen.findByRole("radio", { name: /^Kim/ });
    fireEvent.click(screen.getByRole("button", { name: "Transfer" }));
    expect(screen.getByRole("alert").textContent).toBe("Choose an advisor or the queue.");
    expect(access.transfer).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("radio", { name: /^Kim/ }));
    fireEvent.change(screen.getByLabelText("Note for the next advisor (optional)"), {
      target: { value: "Wants a refund" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Transfer" }));
    await waitFor(() => expect(close).toHaveBeenCalledTimes(1));
    expect(access.transfer).toHaveBeenCalledWith("c1", {
      AdvisorId: "kim-id",
      Note: "Wants a refund",
    });
  });

  it("to the queue without a note; a refusal is said with the choice and the note kept", async () => {
    const { access, close } = open();
    fireEvent.click(await screen.findByRole("radio", { name: /^The queue/ }));
    vi.mocked(access.transfer).mockRejectedValueOnce(
      new AgentApiError("ConflictException", "Contact c1 has ended.", 409),
    );
    fireEvent.change(screen.getByLabelText("Note for the next advisor (optional)"), {
      target: { value: "  " },
    });
    fireEvent.click(screen.getByRole("button", { name: "Transfer" }));
    await waitFor(() =>
      expect(screen.getByRole("alert").textContent).toBe(
        "The chat was not transferred: Contact c1 has ended.",
      ),
    );
    expect(access.transfer).toHaveBeenCalledWith("c1", { Queue: true });
    expect(close).not.toHaveBeenCalled();
    expect((screen.getByRole("radio", { name: /^The queue/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(close).toHaveBeenCalledTimes(1);
  });

  it("says when nobody else is available, and when the list cannot be read", async () => {
    open({ Advisors: [] });
    expect(await screen.findByText("No other advisor is available now.")).toBeTruthy();
    cleanup();
    const access: TransferAccess = {
      targets: vi.fn(async () => {
        throw new AgentApiError(
          "ResourceNotFoundException",
          "Contact c1 is not one of your chats.",
          404,
        );
      }),
      transfer: vi.fn(),
    };
    render(<TransferDialog contactId="c1" customerName="Alex" access={access} close={() => {}} />);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Who can take it could not be loaded: Contact c1 is not one of your chats.",
    );
    expect((screen.getByRole("button", { name: "Transfer" }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
