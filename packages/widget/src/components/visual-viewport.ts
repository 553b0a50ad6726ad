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
