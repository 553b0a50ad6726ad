import { ContentType } from "@chat-widget/protocol";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { agentMessage, customerMessage, systemMessage } from "../test-support/fakes.js";
import { renderWidget } from "../test-support/render.js";
import { Markdown } from "./Markdown.js";

afterEach(cleanup);

describe("markdown from bots and advisors is rendered", () => {
  it("renders emphasis, code, lists, headings and quotes as elements", () => {
    const { container } = render(
      <Markdown
        text={
          "# Title\n**bold** and *it* and `x<y`\n\n- one\n- two\n\n1. first\n\n> quoted\n\n```\ncode\n```"
        }
      />,
    );
    expect(container.querySelector("h3")?.textContent).toBe("Title");
    expect(container.querySelector("strong")?.textContent).toBe("bold");
    expect(container.querySelector("em")?.textContent).toBe("it");
    expect(container.querySelector("p code")?.textContent).toBe("x<y");
    expect([...container.querySelectorAll("ul li")].map((li) => li.textContent)).toEqual([
      "one",
      "two",
    ]);
    expect(container.querySelector("ol li")?.textContent).toBe("first");
    expect(container.querySelector("blockquote")?.textContent).toBe("quoted");
    expect(container.querySelector("pre code")?.textContent).toBe("code");
  });

  it("links are safe: only http(s) and mailto hrefs, opened with target=_blank rel=noopener noreferrer", () => {
    const { container } = render(
      <Markdown
        text={
          "[shop](https://example.com/a?b=1) [evil](javascript:alert(1)) <mailto:help@example.com> see https://example.org."
        }
      />,
    );
    const links = [...container.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "https://example.com/a?b=1",
      "mailto:help@example.com",
      "https://example.org",
    ]);
    for (const a of links) {
      expect(a.getAttribute("target")).toBe("_blank");
      expect(a.getAttribute("rel")).toBe("noopener noreferrer");
    }
    expect(container.textContent).toContain("evil");
    expect(container.innerHTML).not.toContain("javascript:");
  });

  it("text the contact flow escaped is shown literally: no link, no emphasis (issue 57)", () => {
    const { container } = render(
      <Markdown
        text={"Order **\\[Pay here\\]\\(https\\://evil.example/pay\\) \\_now\\_** is on its way"}
      />,
    );
    expect(container.querySelector("a")).toBeNull();
    expect(container.querySelector("em")).toBeNull();
    expect(container.querySelector("strong")!.textContent).toBe(
      "[Pay here](https://evil.example/pay) _now_",
    );
  });

  it("snake_case words are not emphasised", () => {
    const { container } = render(<Markdown text="order_number_1 is _here_" />);
    expect(container.querySelectorAll("em")).toHaveLength(1);
    expect(container.textContent).toBe("order_number_1 is here");
  });
});

describe("no HTML or script from a message ever runs", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const payload = `Hi <img src=x onerror="alert(1)"> <script>alert(2)</script> <b>bold?</b>`;

  it("a message containing <img src=x onerror=...> and <script> renders inert: no img, no script, text shown", async () => {
    const alert = vi.fn();
    vi.stubGlobal("alert", alert);
    const w = renderWidget();
    await w.open();
    await w.receive(agentMessage(payload, { ContentType: ContentType.TEXT_MARKDOWN }));
    await w.receive(systemMessage(payload));
    await w.receive(customerMessage(payload));
    const log = screen.getByRole("log");
    expect(log.querySelector("img")).toBeNull();
    expect(log.querySelector("script")).toBeNull();
    expect(log.querySelector("b")).toBeNull();
    expect(log.querySelectorAll("[onerror]")).toHaveLength(0);
    const shown = [...log.querySelectorAll(".message")].map((m) => m.textContent);
    expect(shown).toHaveLength(3);
    for (const text of shown)
      expect(text).toContain('<img src=x onerror="alert(1)"> <script>alert(2)</script>');
    await vi.advanceTimersByTimeAsync(100);
    expect(alert).not.toHaveBeenCalled();
  });
});
