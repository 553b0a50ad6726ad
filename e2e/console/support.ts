/** The console's end-to-end tests: the contact centre with the widget and console builds, and Chromium. */
import type { Page } from "playwright-core";
import { screenshot as save } from "../support/chromium.js";
import {
  CONSOLE_BUILD,
  startContactCentre as start,
  WIDGET_BUILD,
  type ContactCentre,
} from "../support/contact-centre.js";

export { STARTUP_MS } from "../support/contact-centre.js";
export type { ContactCentre };

export const startContactCentre = (): Promise<ContactCentre> =>
  start([WIDGET_BUILD, CONSOLE_BUILD]);

export const screenshot = (page: Page, name: string): Promise<void> =>
  save(page, `console-${name}`);
