/**
 * The launcher the first script paints by hand, before React exists (issue 61): the same
 * element, classes and styles as components/Button.tsx draws, so the page sees one launcher
 * from first paint to React's; the loading indicator beside it once the visitor clicked.
 */
import { CHAT_PATH, REFRESH_PATH } from "../components/icon-paths.js";
import { keepInVisualViewport } from "../components/visual-viewport.js";
import { applyPrimaryContrast } from "../contrast.js";
import type { ColorScheme } from "../settings.js";
import { ERROR_NOTICE_MS } from "../state/constants.js";
import { paintedStyles } from "../styles.js";
import { badgeText, launcherName } from "../components/unread-name.js";
import type { LauncherTexts } from "./texts.js";

export interface PaintOptions {
  texts: LauncherTexts;
  colorScheme: ColorScheme;
  nonce?: string;
  /** data-launcher="hidden": no button; only the loading indicator, when the host opens. */
  hidden: boolean;
  /** Pointer over or focus on the launcher: the rest starts loading. */
  intent: () => void;
  /** A click (or Enter, or Space) on the launcher. */
  click: () => void;
}

export interface PaintedLauncher {
  /** Show the loading indicator, or take it away. */
  loading(shown: boolean): void;
  /** The badge and name for messages unread, as React's launcher shows them (Button.tsx). */
  unread(count: number): void;
  /** The app could not be loaded: the error notice for 5 s instead of the button (spec §2). */
  failed(): void;
  /**
   * Whether the button must stay: a pointer or Space is down on it (its click is still to
   * come) or it has keyboard focus (a new button would be announced again by a screen
   * reader). `released` calls back right after that click, or once focus leaves it.
   */
  held(): boolean;
  released(then: () => void): void;
  /** Whether this node is part of what was painted. */
  owns(node: Node): boolean;
  /** Take everything painted off the page. */
  remove(): void;
}

const SVG = "http://www.w3.org/2000/svg";

/** An icon as icons.tsx draws it. */
function icon(doc: Document, path: string): SVGSVGElement {
  const svg = doc.createElementNS(SVG, "svg");
  const attributes: Record<string, string> = {
    viewBox: "0 0 24 24",
    fill: "none",
    stroke: "currentColor",
    "stroke-width": "2",
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    "aria-hidden": "true",
  };
  for (const [name, value] of Object.entries(attributes)) svg.setAttribute(name, value);
  const shape = doc.createElementNS(SVG, "path");
  shape.setAttribute("d", path);
  svg.append(shape);
  return svg;
}

/** Run once the next frame has been painted (at once where there are no frames). */
function afterNextPaint(view: Window | null, run: () => void): void {
  if (view?.requestAnimationFrame) view.requestAnimationFrame(() => setTimeout(run));
  else run();
}

export function paintLauncher(shadow: ShadowRoot, options: PaintOptions): PaintedLauncher {
  const doc = shadow.ownerDocument;
  const { texts } = options;
  const root = doc.createElement("div");
  root.className = `cw ${options.colorScheme}`;
  root.lang = texts.LANG;
  root.dir = texts.DIR;
  const style = doc.createElement("style");
  if (options.nonce) style.setAttribute("nonce", options.nonce);
  style.textContent = paintedStyles;
  root.append(style);
  let button: HTMLButtonElement | null = null;
  if (!options.hidden) {
    button = doc.createElement("button");
    button.type = "button";
    button.className = "launcher appear";
    button.setAttribute("aria-label", texts.OPEN);
    button.title = texts.OPEN;
    button.append(icon(doc, CHAT_PATH));
    button.addEventListener("pointerenter", options.intent);
    button.addEventListener("focus", options.intent);
    button.addEventListener("click", options.click);
    root.append(button);
  }
  const view = doc.defaultView;
  let pressed = false;
  const afterRelease: (() => void)[] = [];
  const release = () => {
    pressed = false;
    view?.removeEventListener("pointerup", release, true);
    view?.removeEventListener("pointercancel", release, true);
    view?.removeEventListener("keyup", release, true);
    // After the click the browser dispatches right after pointerup or keyup.
    setTimeout(() => afterRelease.splice(0).forEach((then) => then()));
  };
  const press = () => {
    pressed = true;
    view?.addEventListener("pointerup", release, true);
    view?.addEventListener("pointercancel", release, true);
    view?.addEventListener("keyup", release, true);
  };
  button?.addEventListener("pointerdown", press);
  button?.addEventListener("keydown", (e) => {
    if (e.key === " ") press();
  });
  button?.addEventListener("blur", release);
  shadow.append(root);
  let stopInset = () => {};
  let removed = false;
  // What reads the page's styles and layout waits until the frame that first shows the
  // launcher has computed them, so loading the page forces neither (issue 61). That frame
  // shows the launcher at the start of its appear animation, nearly transparent.
  afterNextPaint(view, () => {
    if (removed) return;
    applyPrimaryContrast(root);
    if (button) stopInset = keepInVisualViewport(button);
  });
  let indicator: HTMLElement | null = null;
  return {
    loading(shown) {
      if (!shown) {
        indicator?.remove();
        indicator = null;
      }
      if (!shown || indicator) return;
      indicator = doc.createElement("span");
      indicator.className = `loading-indicator${options.hidden ? " alone" : ""}`;
      indicator.setAttribute("role", "status");
      indicator.setAttribute("aria-label", texts.LOADING);
      const rotate = doc.createElement("span");
      rotate.className = "rotate";
      rotate.style.display = "block";
      rotate.append(icon(doc, REFRESH_PATH));
      indicator.append(rotate);
      root.append(indicator);
    },
    unread(count) {
      if (!button || count <= 0) return;
      const name = launcherName(count, texts);
      button.setAttribute("aria-label", name);
      button.title = name;
      const badge = doc.createElement("span");
      badge.className = "badge";
      badge.setAttribute("aria-hidden", "true");
      badge.textContent = badgeText(count);
      button.append(badge);
    },
    failed() {
      this.loading(false);
      const notice = doc.createElement("div");
      notice.className = "error-notice appear";
      notice.setAttribute("role", "alert");
      notice.textContent = texts.ERROR_NOTICE;
      if (button) button.hidden = true;
      root.append(notice);
      setTimeout(() => {
        notice.remove();
        if (button) button.hidden = false;
      }, ERROR_NOTICE_MS);
    },
    held: () => pressed || (button !== null && shadow.activeElement === button),
    released(then) {
      afterRelease.push(then);
    },
    owns: (node) => root.contains(node),
    remove() {
      removed = true;
      stopInset();
      root.remove();
    },
  };
}
