/**
 * The end-to-end project's global set-up: one headless Chromium for the whole run, which every
 * test file connects to (`connectChromium`) and in which each test opens a browser context of
 * its own, so no cookie, storage or page of one test is seen by another. Launching Chromium
 * once instead of in each file's `beforeAll` saves its start-up in every file, and lets the
 * files run side by side without a browser each.
 */
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  project.provide("chromiumEndpoint", server.wsEndpoint());
  return () => server.close();
}
