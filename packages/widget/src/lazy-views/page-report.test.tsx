import { VISITOR_PAGE_PATH } from "@chat-widget/protocol";
import { act, cleanup, render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CHAT, MemoryStorage, fakeGateway } from "../test-support/fakes.js";
import { PAGE_CHECK_MS, PAGE_RETRY_MS, PageReport, pageOf } from "./PageReport.js";

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

beforeEach(() => {
  vi.useFakeTimers();
  history.replaceState(null, "", "/shop/cart?item=1");
  document.title = "Your basket";
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function mount(stored = true, prepare?: (gateway: ReturnType<typeof fakeGateway>) => void) {
  const gateway = fakeGateway();
  prepare?.(gateway);
  const storage = new MemoryStorage();
  if (stored) storage.save({ chat: CHAT, visible: true });
  const view = render(<PageReport gateway={gateway} storage={storage} />);
  return { gateway, storage, view };
}

const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe("the page report (issue 60)", () => {
  it("tells the contact centre the page at once, then each change of URL or title, each once", async () => {
    const { gateway } = mount();
    await tick(0);
    expect(gateway.report).toHaveBeenCalledTimes(1);
    expect(gateway.report).toHaveBeenLastCalledWith(VISITOR_PAGE_PATH, CHAT, {
      ContactId: CHAT.ContactId,
      Url: location.href,
      Title: "Your basket",
      TimeZone: ZONE,
    });
    expect(location.href).toMatch(/\/shop\/cart\?item=1$/);

    await tick(PAGE_CHECK_MS * 3);
    expect(gateway.report).toHaveBeenCalledTimes(1);

    // A single-page site's navigation: the URL changes, then the title.
    history.pushState(null, "", "/checkout");
    await tick(PAGE_CHECK_MS);
    expect(gateway.report).toHaveBeenCalledTimes(2);
    expect(gateway.report.mock.lastCall![2]).toMatchObject({ Url: location.href });
    document.title = "Checkout";
    await tick(PAGE_CHECK_MS);
    expect(gateway.report).toHaveBeenCalledTimes(3);
    expect(gateway.report.mock.lastCall![2]).toMatchObject({ Title: "Checkout" });
  });

  it("tries a report that was not taken again after 15 s, not sooner", async () => {
    const { gateway } = mount(true, (g) =>
      g.report.mockResolvedValueOnce(false).mockRejectedValueOnce(new TypeError("offline")),
    );
    await tick(0);
    expect(gateway.report).toHaveBeenCalledTimes(1);
    await tick(PAGE_RETRY_MS - 1);
    expect(gateway.report).toHaveBeenCalledTimes(1);
    await tick(PAGE_CHECK_MS);
    expect(gateway.report).toHaveBeenCalledTimes(2); // rejected: again after another 15 s
    await tick(PAGE_RETRY_MS + PAGE_CHECK_MS);
    expect(gateway.report).toHaveBeenCalledTimes(3);
    await tick(PAGE_CHECK_MS * 5);
    expect(gateway.report).toHaveBeenCalledTimes(3);
  });

  it("reports nothing without a running chat, and stops when it is gone", async () => {
    const { gateway, storage, view } = mount(false);
    await tick(PAGE_CHECK_MS * 2);
    expect(gateway.report).not.toHaveBeenCalled();
    storage.save({ chat: CHAT, visible: false });
    await tick(PAGE_CHECK_MS);
    expect(gateway.report).toHaveBeenCalledTimes(1);
    view.unmount();
    history.pushState(null, "", "/elsewhere");
    await tick(PAGE_CHECK_MS * 2);
    expect(gateway.report).toHaveBeenCalledTimes(1);
  });

  it("keeps within the contact centre's bounds: a long URL loses its query, a long title is cut", () => {
    const long = `https://shop.example/p?${"q".repeat(3000)}#x`;
    expect(pageOf(long, "t", undefined)).toEqual({ Url: "https://shop.example/p", Title: "t" });
    expect(pageOf("https://shop.example/", ` ${"é".repeat(300)} `, "UTC")).toEqual({
      Url: "https://shop.example/",
      Title: "é".repeat(256),
      TimeZone: "UTC",
    });
  });
});
