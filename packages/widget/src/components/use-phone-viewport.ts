/**
 * On a phone (below 480 px wide) the open window fills the screen (issue 24): it follows the
 * visual viewport, so the on-screen keyboard shrinks it instead of covering the composer, and
 * the host page is kept from scrolling behind it. Restored when the window closes.
 */
import { useEffect, type RefObject } from "react";
import { followVisualViewport } from "./visual-viewport.js";

export const PHONE_QUERY = "(max-width: 479.98px)";

export function usePhoneViewport(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = ref.current;
    const view = element?.ownerDocument.defaultView;
    if (!element || !view?.matchMedia(PHONE_QUERY).matches) return;
    const root = element.ownerDocument.documentElement;
    const overflow = root.style.overflow;
    root.style.overflow = "hidden";
    const stop = followVisualViewport(view, (viewport) => {
      element.style.setProperty("--cw-viewport-height", `${viewport.height}px`);
      element.style.setProperty("--cw-viewport-top", `${viewport.offsetTop}px`);
    });
    return () => {
      root.style.overflow = overflow;
      stop();
    };
  }, [ref]);
}
