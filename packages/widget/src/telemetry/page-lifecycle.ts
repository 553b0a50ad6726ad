/**
 * The host page's lifecycle as telemetry needs it: `pagehide` (the page is left, for good or
 * into the back/forward cache) and a `pageshow` whose `persisted` flag says it came back
 * from that cache. The target is injected, so tests dispatch the events themselves.
 */
type PageEvents = Pick<EventTarget, "addEventListener">;

export function onPageHide(target: PageEvents): (callback: () => void) => void {
  return (callback) => target.addEventListener("pagehide", () => callback());
}

export function onPageRestore(target: PageEvents): (callback: () => void) => void {
  return (callback) =>
    target.addEventListener("pageshow", (event) => {
      if ((event as PageTransitionEvent).persisted) callback();
    });
}
