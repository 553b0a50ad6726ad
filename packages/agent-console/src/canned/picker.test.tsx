import type { CannedResponse } from "@chat-widget/protocol";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Composer } from "../components/Composer.js";

afterEach(cleanup);

const response = (
  Shortcut: string,
  Title: string,
  Body: string,
  Shared = true,
): CannedResponse => ({
  CannedId: `id-${Shortcut}`,
  Shortcut,
  Title,
  Body,
  Shared,
  UpdatedAt: "2026-01-16T09:00:00.000Z",
});

const RESPONSES = [
  response(
    "where",
    "Where is my order",
    "Hi {{visitor.name}}, order {{attributes.orderNumber}} left today.",
  ),
  response("refund", "Refund on its way", "Your refund is on its way.", false),
  response("hours", "Opening hours", "We answer 9 to 5."),
];

function composer(responses = RESPONSES) {
  const send = vi.fn(async () => true);
  const fill = vi.fn((body: string) =>
    body.replace("{{visitor.name}}", "Ada").replace("{{attributes.orderNumber}}", "A\\-1"),
  );
  render(
    <Composer
      disabled={false}
      send={send}
      typing={() => {}}
      attach={() => {}}
      note={async () => true}
      canned={{ responses, fill }}
    />,
  );
  const box = screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
  return { send, fill, box };
}

const options = () =>
  within(screen.getByRole("listbox", { name: "Canned responses" })).getAllByRole("option");

describe("canned responses from the composer (issue 60)", () => {
  it("/ opens the list, typing filters it, arrows move, Enter fills the chosen one in and sends nothing", async () => {
    const { send, fill, box } = composer();
    fireEvent.change(box, { target: { value: "/" } });
    expect(options().map((o) => o.textContent)).toEqual([
      expect.stringMatching(/^\/where Where is my order/),
      expect.stringMatching(/^\/refund Refund on its way · yours/),
      expect.stringMatching(/^\/hours Opening hours/),
    ]);
    fireEvent.change(box, { target: { value: "/o" } });
    expect(options()).toHaveLength(3); // by title: every title holds an o
    fireEvent.change(box, { target: { value: "/ref" } });
    expect(options().map((o) => o.textContent)).toEqual([expect.stringMatching(/^\/refund/)]);
    fireEvent.change(box, { target: { value: "/" } });
    expect(options()[0]!.getAttribute("aria-selected")).toBe("true");
    expect(box.getAttribute("aria-activedescendant")).toBe(options()[0]!.id);
    fireEvent.keyDown(box, { key: "ArrowDown" });
    fireEvent.keyDown(box, { key: "ArrowDown" });
    expect(options()[2]!.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(box, { key: "ArrowDown" }); // wraps
    expect(box.getAttribute("aria-activedescendant")).toBe(options()[0]!.id);
    fireEvent.keyDown(box, { key: "Enter" });
    expect(fill).toHaveBeenCalledWith(RESPONSES[0]!.Body);
    expect(box.value).toBe("Hi Ada, order A\\-1 left today.");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(send).not.toHaveBeenCalled();
    // Still editable, then sent as the advisor leaves it.
    fireEvent.change(box, { target: { value: `${box.value} Anything else?` } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() =>
      expect(send).toHaveBeenCalledWith("Hi Ada, order A\\-1 left today. Anything else?"),
    );
  });

  it("Escape closes the list until the text changes; a click takes one; no match says so", () => {
    const { box } = composer();
    fireEvent.change(box, { target: { value: "/h" } });
    fireEvent.keyDown(box, { key: "Escape" });
    expect(screen.queryByRole("listbox")).toBeNull();
    fireEvent.change(box, { target: { value: "/ho" } });
    fireEvent.mouseDown(options()[0]!);
    expect(box.value).toBe("We answer 9 to 5.");
    fireEvent.change(box, { target: { value: "/zzz" } });
    expect(screen.getByRole("status").textContent).toBe("No canned response matches /zzz");
  });

  it("is not offered in Note mode, after a space, or without any responses", () => {
    const { box } = composer();
    fireEvent.change(box, { target: { value: "/where now" } });
    expect(screen.queryByRole("listbox")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Note" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Note" }), { target: { value: "/" } });
    expect(screen.queryByRole("listbox")).toBeNull();
    cleanup();
    const empty = composer([]);
    fireEvent.change(empty.box, { target: { value: "/" } });
    expect(screen.queryByRole("listbox")).toBeNull();
  });
});
