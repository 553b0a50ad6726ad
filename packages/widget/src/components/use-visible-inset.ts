/**
 * Keeps a fixed element inside what the visitor sees (issue 24): on a page wider than a phone's
 * screen, or zoomed in, the layout viewport that `position: fixed` follows is larger than the
 * visual viewport, and 25 px from its corner can be off screen. Sets `--cw-inset-right` and
 * `--cw-inset-bottom` to the distance from the visual viewport's corner to the layout's.
 */
import { useEffect, type RefObject } from "react";
import { keepInVisualViewport } from "./visual-viewport.js";

export function useVisibleInset(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = ref.current;
    return element ? keepInVisualViewport(element) : undefined;
  }, [ref]);
}
