// Runs in the page before any of its scripts (page.addInitScript): records, in page time
// (performance.now(), ms since navigation start), when the widget's parts appear. It watches
// the open shadow root of <chat-widget> from the moment it is attached. An element counts as
// visible at the first animation frame in which it is connected and has a non-empty box: that
// frame paints it. Results are read from window.__widgetTiming.
export function installTimingProbe() {
  const marks = {};
  window.__widgetTiming = marks;
  const now = () => performance.now();
  const markOnce = (name, value = now()) => {
    if (marks[name] === undefined) marks[name] = value;
  };
  const pending = new Set();
  const markWhenPainted = (name, element) => {
    if (marks[name] !== undefined || pending.has(name)) return;
    pending.add(name);
    requestAnimationFrame(() => {
      pending.delete(name);
      const box = element.getBoundingClientRect();
      if (element.isConnected && box.width > 0 && box.height > 0) markOnce(name);
    });
  };

  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === "first-contentful-paint") markOnce("fcp", entry.startTime);
    }
  }).observe({ type: "paint", buffered: true });
  addEventListener("click", () => markOnce("click"), true);

  // The visitor reaches for the launcher: the pointer comes over it, or focus.
  for (const type of ["pointerover", "focusin"])
    addEventListener(
      type,
      (event) => {
        if (event.target instanceof Element && event.target.localName === "chat-widget")
          markOnce("intent");
      },
      true,
    );

  const watch = (root) => {
    /** The first launcher seen: the painted one where the first script paints it (issue 61). */
    let firstLauncher = null;
    const check = () => {
      const launcher = root.querySelector("button.launcher");
      if (launcher) {
        firstLauncher ??= launcher;
        markOnce("buttonInDom");
        markWhenPainted("buttonVisible", launcher);
        // React's launcher has taken the painted one's place: the app is ready.
        if (launcher !== firstLauncher && !firstLauncher.isConnected) markOnce("appReady");
      }
      if (marks.click === undefined) return;
      const chatWindow = root.querySelector(".window");
      if (chatWindow) markWhenPainted("windowVisible", chatWindow);
      const first = root.querySelector(".window .list-picker, .window .message.incoming");
      if (first) markWhenPainted("botFirstItem", first);
      const option = root.querySelector(".window button.option:not(:disabled)");
      if (option) markWhenPainted("optionsEnabled", option);
    };
    new MutationObserver(check).observe(root, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ["disabled", "class"],
    });
    root.addEventListener("animationend", (event) => {
      const target = event.composedPath()[0];
      if (target instanceof Element && target.matches("button.launcher")) markOnce("buttonShown");
    });
    check();
  };

  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    if (this.localName === "chat-widget") watch(root);
    return root;
  };
  customElements.whenDefined("chat-widget").then(() => markOnce("defined"));
}

/** The page's navigation and widget-script timings, read after the run (runs in the page). */
export function readPageTimings() {
  const nav = performance.getEntriesByType("navigation")[0];
  const script = performance
    .getEntriesByType("resource")
    .find((entry) => entry.name.endsWith("/widget/chat-widget.js"));
  return {
    ...window.__widgetTiming,
    domContentLoaded: nav?.domContentLoadedEventEnd,
    load: nav?.loadEventEnd,
    scriptResponseEnd: script?.responseEnd,
    scriptTransferSize: script?.transferSize,
    scriptEncodedSize: script?.encodedBodySize,
    scriptDecodedSize: script?.decodedBodySize,
    scriptRenderBlocking: script?.renderBlockingStatus,
  };
}
