import { cleanup, render } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { usePhoneViewport } from "./use-phone-viewport.js";

/** A visual viewport the test moves, as the on-screen keyboard does. */
class FakeViewport extends EventTarget {
  height = 844;
  offsetTop = 0;
}

function Probe() {
  const ref = useRef<HTMLDivElement>(null);
  usePhoneViewport(ref);
  return <div ref={ref} data-testid="window" />;
}

function onPhone(phone: boolean) {
  const viewport = new FakeViewport();
  vi.spyOn(window, "matchMedia").mockImplementation(
    (query) => ({ matches: phone && query === "(max-width: 479.98px)" }) as MediaQueryList,
  );
  // happy-dom has no visual viewport: the browser's is set for the test.
  Object.defineProperty(window, "visualViewport", { configurable: true, value: viewport });
  return viewport;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  Reflect.deleteProperty(window, "visualViewport");
  document.documentElement.style.overflow = "";
});

describe("the open window on a phone (issue 24)", () => {
  it("follows the visual viewport: the on-screen keyboard shrinks it rather than covering the composer", () => {
    const viewport = onPhone(true);
    const { getByTestId } = render(<Probe />);
    const style = getByTestId("window").style;
    expect(style.getPropertyValue("--cw-viewport-height")).toBe("844px");
    viewport.height = 500;
    viewport.offsetTop = 120;
    viewport.dispatchEvent(new Event("resize"));
    expect(style.getPropertyValue("--cw-viewport-height")).toBe("500px");
    expect(style.getPropertyValue("--cw-viewport-top")).toBe("120px");
  });

  it("keeps the page behind from scrolling while open, and gives it back", () => {
    onPhone(true);
    document.documentElement.style.overflow = "auto";
    const { unmount } = render(<Probe />);
    expect(document.documentElement.style.overflow).toBe("hidden");
    unmount();
    expect(document.documentElement.style.overflow).toBe("auto");
  });

  it("does nothing on a wider screen", () => {
    const viewport = onPhone(false);
    const { getByTestId } = render(<Probe />);
    viewport.dispatchEvent(new Event("resize"));
    expect(getByTestId("window").style.getPropertyValue("--cw-viewport-height")).toBe("");
    expect(document.documentElement.style.overflow).toBe("");
  });
});
