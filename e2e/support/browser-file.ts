/**
 * What every browser test file sets up: its own contact centre (so no queue, advisor or chat
 * state leaks between files running side by side) and a connection to the run's one Chromium
 * (chromium-server.ts), started before the file's tests and closed after them. Each test opens
 * its own browser context on `browser`.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { connectChromium } from "./chromium.js";
import { STARTUP_MS, startContactCentre, type ContactCentre } from "./contact-centre.js";

export interface BrowserFile<Centre> {
  /** The file's contact centre; read it in tests and hooks, not while the file is collected. */
  readonly centre: Centre;
  /** This file's connection to the run's Chromium. */
  readonly browser: Browser;
}

/**
 * Registers the file's set-up: `start` (default: a contact centre serving the widget) and the
 * connection to Chromium before its tests; both closed after them. Hooks the file registers
 * later run after this set-up and, when closing, before it.
 */
export function useBrowserFile<Centre extends { close(): Promise<void> } = ContactCentre>(
  start: () => Promise<Centre> = () => startContactCentre() as Promise<ContactCentre & Centre>,
): BrowserFile<Centre> {
  let centre: Centre | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    centre = await start();
    browser = await connectChromium();
  }, STARTUP_MS);
  afterAll(async () => {
    await browser?.close();
    await centre?.close();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started: read it in a test or hook`);
    return value;
  };
  return {
    get centre() {
      return started(centre, "The file's contact centre");
    },
    get browser() {
      return started(browser, "The file's Chromium connection");
    },
  };
}
