import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Composer } from "../components/Composer.js";
import { ShortcutsDialog } from "./ShortcutsDialog.js";
import { sendComposerCommand, shortcutOf, SHORTCUTS } from "./shortcuts.js";

afterEach(cleanup);

const key = (init: KeyboardEventInit, target: EventTarget = document.body) => {
  const e = new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init });
  Object.defineProperty(e, "target", { value: target });
  return e;
};

describe("the console's keyboard shortcuts (issue 60)", () => {
  it("Alt and a key's place, whatever character it makes; ? only outside a text box", () => {
    expect(shortcutOf(key({ altKey: true, code: "KeyJ", key: "∆" }))).toBe("next");
    expect(shortcutOf(key({ altKey: true, code: "KeyK", key: "k" }))).toBe("previous");
    expect(shortcutOf(key({ altKey: true, code: "KeyA", key: "a" }))).toBe("accept");
    expect(shortcutOf(key({ altKey: true, code: "Slash", key: "/" }))).toBe("canned");
    expect(shortcutOf(key({ altKey: true, code: "KeyN", key: "n" }))).toBe("toggle-note");
    expect(shortcutOf(key({ altKey: true, ctrlKey: true, code: "KeyJ" }))).toBeNull();
    expect(shortcutOf(key({ code: "KeyJ", key: "j" }))).toBeNull();
    expect(shortcutOf(key({ key: "?" }))).toBe("help");
    expect(shortcutOf(key({ key: "?" }, document.createElement("textarea")))).toBeNull();
    expect(shortcutOf(key({ key: "?" }, document.createElement("input")))).toBeNull();
  });

  it("the composer in view takes / for canned responses and switches Reply and Note", async () => {
    render(
      <Composer
        disabled={false}
        send={async () => true}
        typing={() => {}}
        attach={() => {}}
        note={async () => true}
        canned={{
          responses: [
            {
              CannedId: "a",
              Shortcut: "hi",
              Title: "Hello",
              Body: "Hello!",
              Shared: true,
              UpdatedAt: "2026-01-01T00:00:00.000Z",
            },
          ],
          fill: (b) => b,
        }}
      />,
    );
    const box = screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
    act(() => {
      sendComposerCommand("canned");
    });
    expect(box.value).toBe("/");
    expect(document.activeElement).toBe(box);
    expect(screen.getByRole("listbox", { name: "Canned responses" })).toBeTruthy();
    act(() => {
      sendComposerCommand("toggle-note");
    });
    expect(screen.getByRole("button", { name: "Note" }).getAttribute("aria-pressed")).toBe("true");
    act(() => {
      sendComposerCommand("toggle-note");
    });
    expect(screen.getByRole("button", { name: "Reply" }).getAttribute("aria-pressed")).toBe("true");
    fireEvent.change(box, { target: { value: "half written" } });
    act(() => {
      sendComposerCommand("canned");
    });
    expect(box.value).toBe("half written"); // what the advisor wrote is never replaced
  });

  it("the dialog lists every shortcut", () => {
    render(<ShortcutsDialog close={() => {}} />);
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(SHORTCUTS.map((s) => `${s.keys}${s.label}`));
  });
});
