/** Debian's Chromium, headless, driven by playwright-core; screenshots for a person to look at. */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Download, type Page } from "playwright-core";
import { inject } from "vitest";

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
declare module "vitest" {
  export interface ProvidedContext {
    /** The run's one Chromium's websocket endpoint (chromium-server.ts), for `chromium.connect`. */
    chromiumEndpoint: string;
  }
}

export const RESULTS = fileURLToPath(new URL("../../test-results/", import.meta.url));

/**
 * A connection to the run's one Chromium (chromium-server.ts). Closing it closes the contexts
 * it opened and leaves the browser running for the other files.
 */
export function connectChromium(): Promise<Browser> {
  return chromium.connect(inject("chromiumEndpoint"));
}

/** A download's bytes, read through the connection (its path is the shared browser's, not ours). */
export async function downloaded(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Saves `test-results/<name>.png` (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: `${RESULTS}${name}.png` });
}
