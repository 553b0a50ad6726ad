import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentApiError } from "../api/errors.js";
import { TagsEditor, type TagsAccess } from "./TagsEditor.js";
import { WrapUpForm } from "./WrapUpForm.js";

afterEach(cleanup);

function access(initial: string[]) {
  let kept = [...initial];
  const a = {
    tags: vi.fn(async (id: string) => ({ ContactId: id, Tags: kept })),
    setTags: vi.fn(async (id: string, tags: string[]) => {
      kept = [...new Set(tags.map((t) => t.toLowerCase()))].sort();
      return { ContactId: id, Tags: kept };
    }),
    suggest: vi.fn(async (prefix: string) => ({
      Tags: ["refund", "delivery", "damaged"]
        .filter((t) => t.startsWith(prefix))
        .map((Tag) => ({ Tag, Uses: 1 })),
    })),
  } satisfies TagsAccess;
  return a;
}

const shown = () =>
  [...document.querySelectorAll(".tag")].map((t) => t.firstChild?.textContent ?? "");

describe("a conversation's tags (issue 60)", () => {
  it("adds one (as the server keeps it), removes one, and suggests the team's as the advisor types", async () => {
    const a = access(["vip"]);
    render(<TagsEditor contactId="c1" access={a} />);
    await waitFor(() => expect(shown()).toEqual(["vip"]));
    const field = screen.getByRole("combobox", { name: "Add a tag" });
    fireEvent.change(field, { target: { value: "D" } });
    await waitFor(() => expect(a.suggest).toHaveBeenLastCalledWith("d"));
    await waitFor(() =>
      expect(
        [...document.querySelectorAll("datalist option")].map((o) => o.getAttribute("value")),
      ).toEqual(["delivery", "damaged"]),
    );
    fireEvent.change(field, { target: { value: "  Late  Parcel " } });
    fireEvent.click(screen.getByRole("button", { name: "Add" }));
    await waitFor(() => expect(shown()).toEqual(["late parcel", "vip"]));
    expect(a.setTags).toHaveBeenLastCalledWith("c1", ["vip", "late parcel"]);
    expect((field as HTMLInputElement).value).toBe("");
    fireEvent.click(screen.getByRole("button", { name: "Remove tag vip" }));
    await waitFor(() => expect(shown()).toEqual(["late parcel"]));
    expect(within(screen.getByRole("group", { name: "Tags" })).queryByRole("alert")).toBeNull();
  });

  it("a refusal is said and changes nothing", async () => {
    const a = access(["vip"]);
    a.setTags.mockRejectedValueOnce(
      new AgentApiError("x", "A tag has 40 characters at most.", 400),
    );
    render(<TagsEditor contactId="c1" access={a} />);
    await waitFor(() => expect(shown()).toEqual(["vip"]));
    fireEvent.change(screen.getByRole("combobox", { name: "Add a tag" }), {
      target: { value: "x".repeat(40) },
    });
    fireEvent.click(screen.getByRole("button", { name: "Add" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The tags were not saved: A tag has 40 characters at most.",
    );
    expect(shown()).toEqual(["vip"]);
  });
});

describe("the wrap-up (issue 60)", () => {
  it("asks for text, saves it, says so; a refusal is said with the text kept", async () => {
    const save = vi.fn(async () => ({}));
    render(<WrapUpForm save={save} />);
    fireEvent.click(screen.getByRole("button", { name: "Save wrap-up" }));
    expect(screen.getByRole("alert").textContent).toBe("Write the wrap-up first.");
    const box = screen.getByLabelText("Wrap-up (optional)") as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "Refund issued" } });
    fireEvent.click(screen.getByRole("button", { name: "Save wrap-up" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Wrap-up saved."));
    expect(save).toHaveBeenCalledWith("Refund issued");
    save.mockRejectedValueOnce(new AgentApiError("x", "The server is down.", 503));
    fireEvent.click(screen.getByRole("button", { name: "Save wrap-up" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The wrap-up was not saved: The server is down.",
    );
    expect(box.value).toBe("Refund issued");
  });
});
