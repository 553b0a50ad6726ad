/** The widget's end-to-end tests: the shared contact centre and Chromium, screenshots named widget-*. */
import type { Locator, Page } from "playwright-core";
import { screenshot as save } from "../support/chromium.js";

export { launchChromium } from "../support/chromium.js";
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
