/** Debian's Chromium, headless, driven by playwright-core; screenshots for a person to look at. */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
/** Root needs --no-sandbox; the rest keep Chromium off the (closed) network. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
export const RESULTS = fileURLToPath(new URL("../../test-results/", import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** Saves `test-results/<name>.png` (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: `${RESULTS}${name}.png` });
}
