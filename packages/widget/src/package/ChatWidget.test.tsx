import { act, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FONT_STYLE_ID } from "../fonts.js";
import { ChatWidget } from "./ChatWidget.js";

afterEach(() => {
  document.getElementById(FONT_STYLE_ID)?.remove();
  vi.restoreAllMocks();
});

describe("the React component of the npm package", () => {
  it("Mounts the widget in its host's shadow root, with the fonts from the contact centre on the document", async () => {
    const { container } = render(<ChatWidget server="https://chat.example.com" />);
    await act(async () => {});
    const host = container.querySelector<HTMLDivElement>("[data-chat-widget]")!;
    expect(host.shadowRoot?.querySelector("button.launcher")).not.toBeNull();
    expect(container.querySelector("button")).toBeNull();
    expect(document.getElementById(FONT_STYLE_ID)?.textContent).toContain(
      'url("https://chat.example.com/widget/fonts/poppins-latin-500-normal.woff2")',
    );
  });

  it("A wrong server leaves the chat out with a clear error on the console, and the host's page renders on", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { container } = render(
      <main>
        <h1>Shop</h1>
        <ChatWidget server="chat.example.com" />
      </main>,
    );
    await act(async () => {});
    expect(container.querySelector("h1")?.textContent).toBe("Shop");
    expect(container.querySelector("[data-chat-widget]")?.shadowRoot).toBeNull();
    expect(error).toHaveBeenCalledWith(
      new TypeError('chat-widget: server must be an http(s) URL, not "chat.example.com"'),
    );
  });
});
