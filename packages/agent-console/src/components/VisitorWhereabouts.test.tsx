import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LOCAL_TIME_TICK_MS, LocalTime, PageLink } from "./VisitorWhereabouts.js";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const timeIn = (timeZone: string, at: number) =>
  new Intl.DateTimeFormat(undefined, { timeStyle: "short", timeZone }).format(at);

describe("the visitor's local time", () => {
  it("is the time in their zone, drawn again every 30 s", () => {
    vi.useFakeTimers();
    let at = Date.UTC(2026, 0, 16, 9, 0);
    const { container } = render(<LocalTime timeZone="Asia/Tokyo" now={() => at} />);
    expect(container.textContent).toBe(`${timeIn("Asia/Tokyo", at)} (Asia/Tokyo)`);
    expect(container.textContent).toMatch(/6:00|18:00/);
    at += 31 * 60_000;
    act(() => void vi.advanceTimersByTime(LOCAL_TIME_TICK_MS - 1));
    expect(container.textContent).toMatch(/6:00|18:00/);
    act(() => void vi.advanceTimersByTime(1));
    expect(container.textContent).toBe(`${timeIn("Asia/Tokyo", at)} (Asia/Tokyo)`);
    expect(container.textContent).toMatch(/6:31|18:31/);
  });
});

describe("the page the visitor is on", () => {
  it("is a link by its title that opens beside the console, its URL under it", () => {
    render(
      <PageLink
        page={{
          Url: "https://shop.example/cart",
          Title: "Your basket",
          At: "2026-01-16T09:00:00Z",
        }}
      />,
    );
    const link = screen.getByRole("link", { name: "Your basket" });
    expect(link.getAttribute("href")).toBe("https://shop.example/cart");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(screen.getByText("https://shop.example/cart")).toBeTruthy();
  });

  it("is named by its URL without a title, and no link at all unless http(s)", () => {
    render(<PageLink page={{ Url: "https://shop.example/", Title: "", At: "" }} />);
    expect(screen.getByRole("link", { name: "https://shop.example/" })).toBeTruthy();
    cleanup();
    render(<PageLink page={{ Url: "javascript:alert(1)", Title: "", At: "" }} />);
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getByText("javascript:alert(1)")).toBeTruthy();
  });
});
