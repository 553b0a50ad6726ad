import type { CannedInput, CannedResponse } from "@chat-widget/protocol";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentApiError } from "../api/errors.js";
import { CannedManager } from "./CannedManager.js";
import { useCannedList, type CannedAccess } from "./use-canned-list.js";

afterEach(cleanup);

const stored = (
  Shortcut: string,
  Shared: boolean,
  Title = `Title ${Shortcut}`,
): CannedResponse => ({
  CannedId: `id-${Shortcut}`,
  Shortcut,
  Title,
  Body: `Body of ${Shortcut}`,
  Shared,
  UpdatedAt: "2026-01-16T09:00:00.000Z",
});

/** A server that keeps what it is given, refusing a shortcut taken as the real one does. */
function server(initial: CannedResponse[]) {
  let rows = [...initial];
  const taken = (input: CannedInput, except?: string) =>
    rows.some((r) => !r.Shared && r.Shortcut === input.Shortcut && r.CannedId !== except);
  const conflict = (s: string) =>
    new AgentApiError("ConflictException", `The shortcut /${s} is taken: choose another.`, 409);
  const access: CannedAccess = {
    list: vi.fn(async () => ({ Canned: rows })),
    create: vi.fn(async (input: CannedInput) => {
      if (taken(input)) throw conflict(input.Shortcut);
      const row = { ...stored(input.Shortcut, false), ...input, CannedId: `new-${input.Shortcut}` };
      rows = [...rows, row];
      return row;
    }),
    update: vi.fn(async (id: string, input: CannedInput) => {
      if (taken(input, id)) throw conflict(input.Shortcut);
      const row = { ...rows.find((r) => r.CannedId === id)!, ...input };
      rows = rows.map((r) => (r.CannedId === id ? row : r));
      return row;
    }),
    remove: vi.fn(async (id: string) => {
      rows = rows.filter((r) => r.CannedId !== id);
    }),
  };
  return access;
}

function Harness({ access, close }: { access: CannedAccess; close(): void }) {
  const canned = useCannedList(access);
  return <CannedManager canned={canned} close={close} />;
}

function open(rows = [stored("bye", false), stored("refund", false), stored("where", true)]) {
  const access = server(rows);
  const close = vi.fn();
  render(<Harness access={access} close={close} />);
  return { access, close };
}

const own = () => screen.getByRole("list", { name: "Yours" });
const shortcuts = (list: HTMLElement) =>
  within(list)
    .getAllByRole("listitem")
    .map((li) => li.querySelector(".shortcut")?.textContent);
const fill = (fields: Partial<Record<"Shortcut" | "Title" | "Text", string>>) => {
  for (const [name, value] of Object.entries(fields))
    fireEvent.change(screen.getByLabelText(name), { target: { value } });
};

describe("managing one's own canned responses (issue 60)", () => {
  it("lists one's own with Change and Delete, and the team's to read only", async () => {
    open();
    await waitFor(() => expect(shortcuts(own())).toEqual(["/bye", "/refund"]));
    const team = screen.getByRole("list", { name: "The team's" });
    expect(shortcuts(team)).toEqual(["/where"]);
    expect(within(team).queryAllByRole("button")).toEqual([]);
    expect(within(own()).getByRole("button", { name: "Change /refund" })).toBeTruthy();
    expect(within(own()).getByRole("button", { name: "Delete /bye" })).toBeTruthy();
  });

  it("adds one: bad input is refused before asking, a taken shortcut keeps the fields, a good one joins the list in order", async () => {
    const { access } = open();
    await waitFor(() => expect(shortcuts(own())).toHaveLength(2));
    fill({ Shortcut: "Hello There", Title: "Greeting", Text: "Hi {{visitor.name}}" });
    fireEvent.click(screen.getByRole("button", { name: "Add" }));
    expect(screen.getByRole("alert").textContent).toBe(
      "A shortcut is 1 to 32 lower-case letters, digits, - or _.",
    );
    fill({ Shortcut: "refund" });
    fireEvent.click(screen.getByRole("button", { name: "Add" }));
    await waitFor(() =>
      expect(screen.getByRole("alert").textContent).toBe(
        "Not saved: The shortcut /refund is taken: choose another.",
      ),
    );
    expect((screen.getByLabelText("Text") as HTMLTextAreaElement).value).toBe(
      "Hi {{visitor.name}}",
    );
    fill({ Shortcut: "hello", Title: "  " });
    fireEvent.click(screen.getByRole("button", { name: "Add" }));
    expect(screen.getByRole("alert").textContent).toBe("Give it a title.");
    fill({ Title: "Greeting" });
    fireEvent.click(screen.getByRole("button", { name: "Add" }));
    await waitFor(() => expect(shortcuts(own())).toEqual(["/bye", "/hello", "/refund"]));
    expect(access.create).toHaveBeenLastCalledWith({
      Shortcut: "hello",
      Title: "Greeting",
      Body: "Hi {{visitor.name}}",
    });
    expect(access.create).toHaveBeenCalledTimes(2);
    expect(screen.getByRole("status").textContent).toBe("Saved /hello.");
    expect((screen.getByLabelText("Shortcut") as HTMLInputElement).value).toBe("");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("changes one in a form filled from it, or leaves it with Cancel", async () => {
    const { access } = open();
    fireEvent.click(await screen.findByRole("button", { name: "Change /refund" }));
    expect(screen.getByRole("heading", { name: "Change /refund" })).toBeTruthy();
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Title refund");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("heading", { name: "New canned response" })).toBeTruthy();
    expect(access.update).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole("button", { name: "Change /refund" }));
    fill({ Shortcut: "money-back", Text: "Your money is on its way." });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(shortcuts(own())).toEqual(["/bye", "/money-back"]));
    expect(access.update).toHaveBeenCalledWith("id-refund", {
      Shortcut: "money-back",
      Title: "Title refund",
      Body: "Your money is on its way.",
    });
    expect(within(own()).getByText("Your money is on its way.")).toBeTruthy();
  });

  it("deletes one only once asked again; Keep keeps it, a refusal is said", async () => {
    const { access } = open();
    fireEvent.click(await screen.findByRole("button", { name: "Delete /bye" }));
    const ask = screen.getByRole("group", { name: "Delete /bye?" });
    fireEvent.click(within(ask).getByRole("button", { name: "Keep" }));
    expect(access.remove).not.toHaveBeenCalled();
    expect(shortcuts(own())).toEqual(["/bye", "/refund"]);

    vi.mocked(access.remove).mockRejectedValueOnce(
      new AgentApiError("x", "The server is down.", 503),
    );
    fireEvent.click(screen.getByRole("button", { name: "Delete /bye" }));
    fireEvent.click(within(screen.getByRole("group")).getByRole("button", { name: "Delete" }));
    await waitFor(() =>
      expect(screen.getByRole("alert").textContent).toBe(
        "/bye was not deleted: The server is down.",
      ),
    );
    expect(shortcuts(own())).toEqual(["/bye", "/refund"]);

    fireEvent.click(within(screen.getByRole("group")).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(shortcuts(own())).toEqual(["/refund"]));
    expect(access.remove).toHaveBeenLastCalledWith("id-bye");
    expect(screen.getByRole("status").textContent).toBe("Deleted /bye.");
  });

  it("Close closes it", async () => {
    const { close } = open();
    fireEvent.click(await screen.findByRole("button", { name: "Close" }));
    expect(close).toHaveBeenCalledTimes(1);
  });
});
