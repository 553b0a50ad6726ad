/**
 * Telemetry end to end (docs/product.md §7, docs/decisions.md #10): the built widget in Chromium loads
 * chat-telemetry.js once a chat exists, its metrics reach the contact centre's ingest and show
 * in GET /metrics; a dead telemetry endpoint never breaks the chat.
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { STARTUP_MS } from "../widget/support.js";

let context: BrowserContext;
let page: Page;
let pageErrors: string[];
let requests: string[];
/** A host page on another loopback origin, with the widget script's data- attributes. */
let host: Server;
let hostUrl: string;
let hostAttributes = "";

const file = useBrowserFile();
beforeAll(async () => {
  host = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><html><head><title>Shop</title>` +
        `<script src="${file.centre.url}/widget/chat-widget.js" defer ${hostAttributes}></script>` +
        `</head><body><h1>Shop</h1><chat-widget></chat-widget></body></html>`,
    );
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
}, STARTUP_MS);
afterAll(async () => {
  await new Promise((resolve) => host?.close(resolve));
});
beforeEach(async () => {
  context = await file.browser.newContext({ viewport: { width: 1200, height: 800 } });
  page = await context.newPage();
  pageErrors = [];
  requests = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("request", (request) => requests.push(request.url()));
});
afterEach(async () => {
  await context?.close();
});

const launcher = () => page.locator("chat-widget button.launcher");
const option = (title: string) => page.locator("chat-widget button.option", { hasText: title });
/** Requests for chat-telemetry.js, without the version its URL carries (csp.test.ts checks that). */
const telemetryScriptRequests = () =>
  requests.map((u) => u.split("?")[0]!).filter((u) => u.endsWith("/chat-telemetry.js"));

/** Open the chat and choose an option: the bot's greeting, list picker and answer flow in. */
async function chat(): Promise<void> {
  await launcher().click();
  await option("Where is my order?").waitFor();
  await expect.poll(() => option("Where is my order?").isEnabled()).toBe(true);
  await option("Where is my order?").click();
  // The order's Panel, or (without a jwt) the question for its number.
  await page
    .locator("chat-widget .template.Panel, chat-widget .message.incoming", { hasText: "A-10042" })
    .first()
    .waitFor();
}

/** The widget has loaded chat-telemetry.js (async, beside the chat) and attached it. */
async function telemetryLoaded(): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => typeof Reflect.get(window, "__chatWidgetTelemetry")), {
      timeout: 15_000,
    })
    .toBe("object");
}

/** The page is left: the widget closes its telemetry, which flushes the batch. */
async function pageHide(): Promise<void> {
  await page.evaluate(() =>
    window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: false })),
  );
}

/** `chat_widget_metric_count` of a metric in namespace chat-widget, from GET /metrics. */
async function metricCount(metricName: string): Promise<number> {
  const text = await (await fetch(`${file.centre.url}/metrics`)).text();
  let total = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith("chat_widget_metric_count{")) continue;
    if (!line.includes(`metric_name="${metricName}"`)) continue;
    if (!line.includes(`namespace="chat-widget"`)) continue;
    if (!line.includes(`dim_WidgetType=`)) continue;
    total += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return total;
}

describe("telemetry from the widget", () => {
  it("a widget chat on the demo page publishes its websocket metrics, which GET /metrics then shows", async () => {
    await page.goto(`${file.centre.url}/`);
    await launcher().waitFor();
    expect(telemetryScriptRequests()).toEqual([]);
    const gainedBefore = await metricCount("WebsocketConnectionGained");
    const incomingBefore = await metricCount("WebsocketIncomingMessage");
    await chat();
    expect(telemetryScriptRequests()).toEqual([`${file.centre.url}/widget/chat-telemetry.js`]);
    await telemetryLoaded();
    await pageHide();
    await expect
      .poll(() => metricCount("WebsocketConnectionGained"), { timeout: 15_000 })
      .toBeGreaterThan(gainedBefore);
    await expect
      .poll(() => metricCount("WebsocketIncomingMessage"), { timeout: 15_000 })
      .toBeGreaterThan(incomingBefore);
    expect(pageErrors).toEqual([]);
  });

  it("a telemetry endpoint on a dead port does not break the chat", async () => {
    hostAttributes = `data-telemetry-endpoint="http://127.0.0.1:9"`;
    const gainedBefore = await metricCount("WebsocketConnectionGained");
    await page.goto(hostUrl);
    await chat();
    expect(telemetryScriptRequests()).toEqual([`${file.centre.url}/widget/chat-telemetry.js`]);
    await telemetryLoaded();
    // The flush goes to the dead port and fails; the chat goes on: messages flow both ways.
    await pageHide();
    // Without a jwt the bot asks for the order number: the visitor types it, the bot answers.
    const textbox = page.locator("chat-widget textarea");
    await expect.poll(() => textbox.isEnabled(), { timeout: 15_000 }).toBe(true);
    await textbox.fill("A-10042");
    await textbox.press("Enter");
    await page.locator("chat-widget .template.Panel", { hasText: "A-10042" }).waitFor();
    expect(await page.locator("chat-widget .message.outgoing").allTextContents()).toEqual([
      "Where is my order?",
      "A-10042",
    ]);
    expect(await metricCount("WebsocketConnectionGained")).toBe(gainedBefore);
    expect(pageErrors).toEqual([]);
  });

  it('data-telemetry="off": the telemetry script is never loaded, the chat works', async () => {
    hostAttributes = `data-telemetry="off"`;
    await page.goto(hostUrl);
    await chat();
    expect(telemetryScriptRequests()).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
