/** The widget's end-to-end tests: the shared contact centre and Chromium, screenshots named widget-*. */
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import type { Locator, Page } from "playwright-core";
import { screenshot as save } from "../support/chromium.js";

export { STARTUP_MS, startContactCentre, type ContactCentre } from "../support/contact-centre.js";

export const screenshot = (page: Page, name: string): Promise<void> => save(page, `widget-${name}`);

/** Waits for the element's finite animations (the 0.2 s appear) so its box is the settled one. */
export async function settled(locator: Locator): Promise<void> {
  await locator.evaluate((el) =>
    Promise.all(
      el
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished),
    ),
  );
}

/**
 * Give the demo page's widget script tag `data-` settings (and the page a `lang`) as the parser
 * inserts it, before the widget reads them. The demo page itself, not a page the test fulfils:
 * Chromium counts a fulfilled page off the local network and blocks its websocket to 127.0.0.1.
 */
export async function setWidgetScript(
  page: Page,
  change: { dataset?: Record<string, string>; lang?: string },
): Promise<void> {
  await page.addInitScript(({ dataset, lang }) => {
    new MutationObserver((_records, observer) => {
      const script = document.querySelector<HTMLScriptElement>('script[src*="chat-widget.js"]');
      if (!script) return;
      Object.assign(script.dataset, dataset);
      if (lang) document.documentElement.lang = lang;
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  }, change);
}

export interface Shop {
  /** The page's URL, `http://127.0.0.1:<port>/`. */
  url: string;
  close(): Promise<void>;
}

/**
 * A host page on an origin of its own (another port of 127.0.0.1, a real server: Chromium lets
 * its websocket reach the contact centre, as it would not a page the test fulfils).
 */
export async function serveShop(handler: RequestListener): Promise<Shop> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
