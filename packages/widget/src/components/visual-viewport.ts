/**
 * Run `follow` now and whenever the visual viewport (what the visitor sees: zoom, scroll, the
 * on-screen keyboard) moves or resizes; returns what stops it. Nothing where there is none.
 */
export function followVisualViewport(
  view: Window,
  follow: (viewport: VisualViewport) => void,
): () => void {
  const viewport = view.visualViewport;
  if (!viewport) return () => {};
  const run = () => follow(viewport);
  run();
  viewport.addEventListener("resize", run);
  viewport.addEventListener("scroll", run);
  return () => {
    viewport.removeEventListener("resize", run);
    viewport.removeEventListener("scroll", run);
  };
}

/**
 * Keep a fixed element inside the visual viewport (use-visible-inset.ts says why): sets
 * `--cw-inset-right` and `--cw-inset-bottom` on it; returns the function that stops.
 */
export function keepInVisualViewport(element: HTMLElement): () => void {
  const view = element.ownerDocument.defaultView;
  if (!view) return () => {};
  return followVisualViewport(view, (viewport) => {
    const right = view.innerWidth - (viewport.offsetLeft + viewport.width);
    const bottom = view.innerHeight - (viewport.offsetTop + viewport.height);
    element.style.setProperty("--cw-inset-right", `${Math.max(0, right)}px`);
    element.style.setProperty("--cw-inset-bottom", `${Math.max(0, bottom)}px`);
  });
}
