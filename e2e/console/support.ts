/** The console's end-to-end tests: the contact centre with the widget and console builds, and Chromium. */
import { AgentApiPath, CannedApiPath, type CannedInput } from "@chat-widget/protocol";
import type { Page } from "playwright-core";
import { expect } from "vitest";
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

/** A canned response of the demo advisor's own, made through the agent API. */
export async function demoAdvisorCanned(url: string, canned: CannedInput): Promise<void> {
  const signIn = await fetch(url + AgentApiPath.SignIn, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ Username: "demo", Password: "demo" }),
  });
  expect(signIn.status).toBe(200);
  const { Token } = (await signIn.json()) as { Token: string };
  const created = await fetch(url + CannedApiPath.List, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${Token}` },
    body: JSON.stringify(canned),
  });
  expect(created.status).toBe(200);
}
