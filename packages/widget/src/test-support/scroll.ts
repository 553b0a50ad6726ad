/** Scrolling an element in happy-dom, which has no layout of its own. */
import { act } from "@testing-library/react";

/** `el` scrolled to `top` of `height` px, `client` px of it showing: its scroll event fired. */
export function scrollTo(el: HTMLElement, top: number, height = 10_000, client = 540): void {
  Object.defineProperty(el, "scrollHeight", { configurable: true, value: height });
  Object.defineProperty(el, "clientHeight", { configurable: true, value: client });
  el.scrollTop = top;
  act(() => {
    el.dispatchEvent(new Event("scroll"));
  });
}
