// How fast the widget shows on a page and connects a chat, in headless Chromium against the
// local contact centre (packages/server/dist, PGlite in memory). Each run is a fresh browser
// context on the demo page `/`:
//   (a) page load → the floating button painted, with the page's own first-contentful-paint and
//       DOMContentLoaded beside the same page with the widget script blocked (does the script
//       hold the page back?);
//   (b) click on the button → the chat window painted (it opens once the chat is connected),
//       → the bot's first item painted, → its options enabled.
// All times are page times (performance.now()) taken inside the page. BENCH_RUNS (default 7)
// sets the runs; one extra warm-up run is not counted. Build first: npm run build.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startContactCentre } from "./support/contact-centre.mjs";
import { ms, summarise } from "./support/stats.mjs";
import { installTimingProbe, readPageTimings } from "./support/timing-probe.mjs";

const CHROMIUM = "/usr/bin/chromium";
const WIDGET_BUILD = fileURLToPath(
  new URL("../packages/widget/dist/chat-widget.js", import.meta.url),
);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const STEP_TIMEOUT_MS = 30_000;

if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`BENCH_RUNS must be a positive integer, got "${process.env.BENCH_RUNS}"`);
  process.exit(1);
}
for (const [file, hint] of [
  [WIDGET_BUILD, "npm run build -w @chat-widget/widget"],
  [CHROMIUM, "install Chromium at /usr/bin/chromium"],
]) {
  if (!existsSync(file)) {
    console.error(`missing ${file}: ${hint}`);
    process.exit(1);
  }
}

async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(installTimingProbe);
  return { context, page };
}

const markSet = (name) => (window.__widgetTiming ?? {})[name] !== undefined;

/** The demo page with the widget: button, then click → connected window and the bot's options. */
async function widgetRun(browser, url) {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${url}/`, { waitUntil: "load" });
    await page.waitForFunction(markSet, "buttonShown", { timeout: STEP_TIMEOUT_MS });
    await page.locator("chat-widget button.launcher").click();
    await page.waitForFunction(markSet, "optionsEnabled", { timeout: STEP_TIMEOUT_MS });
    return await page.evaluate(readPageTimings);
  } finally {
    await context.close();
  }
}

/** The same page with the widget script blocked at the network layer (no request interception). */
async function baselineRun(browser, url) {
  const { context, page } = await newPage(browser);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setBlockedURLs", { urls: ["*/widget/chat-widget.js"] });
    await page.goto(`${url}/`, { waitUntil: "load" });
    await page.waitForFunction(markSet, "fcp", { timeout: STEP_TIMEOUT_MS });
    return await page.evaluate(readPageTimings);
  } finally {
    await context.close();
  }
}

function printTable(widget, baseline) {
  const rows = [
    ["page without the widget: first contentful paint", baseline.map((r) => r.fcp)],
    ["page with the widget: first contentful paint", widget.map((r) => r.fcp)],
    ["page without the widget: DOMContentLoaded", baseline.map((r) => r.domContentLoaded)],
    ["page with the widget: DOMContentLoaded", widget.map((r) => r.domContentLoaded)],
    ["widget script downloaded (responseEnd)", widget.map((r) => r.scriptResponseEnd)],
    ["<chat-widget> defined", widget.map((r) => r.defined)],
    ["page load → button painted", widget.map((r) => r.buttonVisible)],
    [
      "page load → button fully shown (0.2 s appear animation ended)",
      widget.map((r) => r.buttonShown),
    ],
    ["click → chat window painted (chat connected)", widget.map((r) => r.windowVisible - r.click)],
    ["click → bot's first item painted", widget.map((r) => r.botFirstItem - r.click)],
    ["click → bot's options enabled", widget.map((r) => r.optionsEnabled - r.click)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`| ${"measure".padEnd(width)} | median | min | max |`);
  console.log(`| ${"-".repeat(width)} | --- | --- | --- |`);
  for (const [label, values] of rows) {
    const s = summarise(values);
    const cells = s ? [ms(s.median), ms(s.min), ms(s.max)] : ["n/a", "n/a", "n/a"];
    console.log(`| ${label.padEnd(width)} | ${cells.join(" | ")} |`);
  }
  const first = widget[0];
  const size = (n) => (Number.isFinite(n) ? `${(n / 1024).toFixed(1)} KB` : "n/a");
  console.log(
    `\nruns: ${widget.length} with the widget, ${baseline.length} without (plus 1 warm-up each, not counted); ` +
      "page load times are ms since navigation start, click times ms since the click.",
  );
  console.log(
    `chat-widget.js from resource timing: transfer ${size(first.scriptTransferSize)}, ` +
      `encoded body ${size(first.scriptEncodedSize)}, decoded ${size(first.scriptDecodedSize)}, ` +
      `renderBlockingStatus "${first.scriptRenderBlocking ?? "n/a"}".`,
  );
  const fcpBeforeScript = widget.filter((r) => r.fcp < r.defined).length;
  console.log(
    `first contentful paint came before the widget script had run in ${fcpBeforeScript} of ${widget.length} runs.`,
  );
}

let centre;
let browser;
try {
  centre = await startContactCentre();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  await baselineRun(browser, centre.url);
  await widgetRun(browser, centre.url);
  const widget = [];
  const baseline = [];
  for (let i = 0; i < RUNS; i++) {
    baseline.push(await baselineRun(browser, centre.url));
    widget.push(await widgetRun(browser, centre.url));
  }
  printTable(widget, baseline);
} catch (error) {
  console.error(`widget timing failed: ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 1;
} finally {
  await browser?.close().catch(() => {});
  await centre?.stop();
}
