// What the widget costs a shop page (issue 61), in headless Chromium with the CPU throttled 4×
// (BENCH_CPU) as Lighthouse's mobile run does, on a plain shop page of its own origin
// (support/shop-page.mjs) against the local contact centre (packages/server/dist, PGlite in
// memory). Each round, in fresh browser contexts, interleaved:
//   before interaction — the page without the tag and with it: main-thread time (Chromium's
//     TaskDuration and ScriptDuration of the page, once the network is quiet), the blocking
//     time of long tasks (each one's time past 50 ms), and what was fetched from the centre;
//   interaction — pointer over the launcher → the app ready (React's launcher in place), a
//     click at once → the chat window → the bot's options, a click once it is ready, and the
//     same click with data-preload="idle".
// BENCH_BASELINE=<a widget dist folder> adds an earlier build (e.g. the one before issue 61) to
// both parts, served from the shop; BENCH_NETWORK=slow4g adds Lighthouse's throttled network
// (562.5 ms round trip, 1.6 Mbps down, 750 kbps up); BENCH_RUNS (default 5) the rounds; one
// warm-up round is not counted. Build first: npm run build.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { launchServer, UNLIMITED_RATE } from "./support/server-launch.mjs";
import { startShop } from "./support/shop-page.mjs";
import { ms, summarise } from "./support/stats.mjs";
import { installTimingProbe } from "./support/timing-probe.mjs";

const CHROMIUM = "/usr/bin/chromium";
const WIDGET = fileURLToPath(new URL("../packages/widget/dist/chat-widget.js", import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CPU = Number(process.env.BENCH_CPU ?? 4);
const NETWORK = process.env.BENCH_NETWORK ?? "none";
const BASELINE = process.env.BENCH_BASELINE;
const STEP_TIMEOUT_MS = 60_000;
/** The network counts as quiet after this long with nothing in flight. */
const QUIET_MS = 500;
const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadThroughput: (750 * 1024 * 0.9) / 8,
};

for (const [ok, message] of [
  [Number.isInteger(RUNS) && RUNS >= 1, `BENCH_RUNS must be a positive integer`],
  [CPU >= 1, "BENCH_CPU must be 1 or more"],
  [NETWORK === "none" || NETWORK === "slow4g", 'BENCH_NETWORK must be "none" or "slow4g"'],
  [existsSync(WIDGET), `missing ${WIDGET}: npm run build`],
  [existsSync(CHROMIUM), "install Chromium at /usr/bin/chromium"],
  [!BASELINE || existsSync(`${BASELINE}/chat-widget.js`), `no chat-widget.js in ${BASELINE}`],
])
  if (!ok) {
    console.error(message);
    process.exit(1);
  }

/** Long tasks' time past 50 ms each (what Total Blocking Time adds up), in the page. */
function installLongTaskProbe() {
  window.__blocking = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__blocking += Math.max(0, entry.duration - 50);
  }).observe({ type: "longtask", buffered: true });
}

/** A fresh context on `path` of the shop, throttled, with its requests to the centre logged. */
async function openShop(browser, env, path) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(installTimingProbe);
  await page.addInitScript(installLongTaskProbe);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  await cdp.send("Network.enable");
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  if (NETWORK === "slow4g") await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
  const urls = new Map();
  const log = { inFlight: new Set(), lastActivity: Date.now(), fetched: [] };
  cdp.on("Network.requestWillBeSent", ({ requestId, request }) => {
    urls.set(requestId, request.url);
    log.inFlight.add(requestId);
    log.lastActivity = Date.now();
  });
  const done = ({ requestId, encodedDataLength = 0 }) => {
    log.inFlight.delete(requestId);
    log.lastActivity = Date.now();
    const url = urls.get(requestId);
    if (url?.startsWith(env.centre) || url?.startsWith(`${env.shop}/baseline-widget/`))
      log.fetched.push({ url, bytes: encodedDataLength });
  };
  cdp.on("Network.loadingFinished", done);
  cdp.on("Network.loadingFailed", done);
  cdp.on("Network.webSocketCreated", ({ url }) => log.fetched.push({ url, bytes: 0 }));
  await page.goto(`${env.shop}${path}`, { waitUntil: "load", timeout: STEP_TIMEOUT_MS });
  return { context, page, cdp, log };
}

/** Wait until nothing has been in flight for QUIET_MS (bounded). */
async function quiet(log) {
  const until = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < until) {
    if (log.inFlight.size === 0 && Date.now() - log.lastActivity >= QUIET_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the network did not go quiet");
}

const marks = (page) => page.evaluate(() => window.__widgetTiming);
const waitMark = (page, name) =>
  page.waitForFunction((n) => window.__widgetTiming[n] !== undefined, name, {
    timeout: STEP_TIMEOUT_MS,
  });
const launcher = (page) => page.locator("chat-widget button.launcher");

/** The page's cost before any interaction. */
async function beforeInteraction(browser, env, path) {
  const shop = await openShop(browser, env, path);
  try {
    if (path !== "/plain") await waitMark(shop.page, "buttonVisible");
    await quiet(shop.log);
    const { metrics } = await shop.cdp.send("Performance.getMetrics");
    const metric = (name) => 1000 * metrics.find((m) => m.name === name).value;
    return {
      task: metric("TaskDuration"),
      script: metric("ScriptDuration"),
      style: metric("RecalcStyleDuration"),
      layout: metric("LayoutDuration"),
      blocking: await shop.page.evaluate(() => window.__blocking),
      bytes: shop.log.fetched.reduce((sum, f) => sum + f.bytes, 0),
      fetched: shop.log.fetched.map((f) => new URL(f.url).pathname),
    };
  } finally {
    await shop.context.close();
  }
}

/**
 * A visitor's click on a page at rest: `hoverFirst` moves the pointer over the launcher and
 * waits until the app is ready before clicking; otherwise the click comes at once.
 */
async function click(browser, env, path, hoverFirst) {
  const shop = await openShop(browser, env, path);
  try {
    await waitMark(shop.page, "buttonVisible");
    await quiet(shop.log);
    if (hoverFirst) {
      await launcher(shop.page).hover();
      await waitMark(shop.page, "appReady");
    }
    await launcher(shop.page).click();
    await waitMark(shop.page, "optionsEnabled");
    const m = await marks(shop.page);
    return {
      ready: m.appReady - m.intent,
      window: m.windowVisible - m.click,
      options: m.optionsEnabled - m.click,
    };
  } finally {
    await shop.context.close();
  }
}

async function round(browser, env) {
  const r = {
    plain: await beforeInteraction(browser, env, "/plain"),
    widget: await beforeInteraction(browser, env, "/widget"),
    atOnce: await click(browser, env, "/widget", false),
    hovered: await click(browser, env, "/widget", true),
    idle: await click(browser, env, "/idle", false),
  };
  if (env.baseline) {
    r.baseline = await beforeInteraction(browser, env, "/baseline");
    r.baselineClick = await click(browser, env, "/baseline", false);
  }
  return r;
}

function printTables(rounds, baseline) {
  const cell = (values, format = ms) => {
    const s = summarise(values);
    return s ? `${format(s.median)} | ${format(s.min)} | ${format(s.max)}` : "n/a | n/a | n/a";
  };
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const col = (key, field) => rounds.map((r) => r[key][field]);
  const added = (key, field) => rounds.map((r) => r[key][field] - r.plain[field]);
  const rows = [
    ["page without the tag: main-thread time (TaskDuration)", cell(col("plain", "task"))],
    ["widget's main-thread time: TaskDuration with − without", cell(added("widget", "task"))],
    ["widget's script time: ScriptDuration with − without", cell(added("widget", "script"))],
    ["style recalculation: with − without", cell(added("widget", "style"))],
    ["layout: with − without", cell(added("widget", "layout"))],
    ["blocking time (long tasks past 50 ms): with − without", cell(added("widget", "blocking"))],
    ["bytes from the contact centre before interaction", cell(col("widget", "bytes"), kb)],
  ];
  if (baseline)
    rows.push(
      ["baseline build: TaskDuration with − without", cell(added("baseline", "task"))],
      ["baseline build: ScriptDuration with − without", cell(added("baseline", "script"))],
      ["baseline build: blocking time with − without", cell(added("baseline", "blocking"))],
      ["baseline build: bytes before interaction", cell(col("baseline", "bytes"), kb)],
    );
  rows.push(
    ["pointer over the launcher → app ready", cell(col("hovered", "ready"))],
    ["click at once → chat window", cell(col("atOnce", "window"))],
    ["click at once → bot's options", cell(col("atOnce", "options"))],
    ["click once ready (hovered first) → bot's options", cell(col("hovered", "options"))],
    ['data-preload="idle": click → bot\'s options', cell(col("idle", "options"))],
  );
  if (baseline)
    rows.push(
      ["baseline build: click → chat window", cell(col("baselineClick", "window"))],
      ["baseline build: click → bot's options", cell(col("baselineClick", "options"))],
    );
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`| ${"measure".padEnd(width)} | median | min | max |`);
  console.log(`| ${"-".repeat(width)} | --- | --- | --- |`);
  for (const [label, cells] of rows) console.log(`| ${label.padEnd(width)} | ${cells} |`);
  const fetched = (key) => [...new Set(rounds.flatMap((r) => r[key].fetched))].join(", ");
  console.log(
    `\n${rounds.length} rounds (plus 1 warm-up), CPU throttled ${CPU}×, network ${NETWORK}.`,
  );
  console.log(`fetched from the centre before interaction: ${fetched("widget") || "nothing"}`);
  if (baseline) console.log(`baseline build fetched: ${fetched("baseline") || "nothing"}`);
}

let server;
let shop;
let browser;
try {
  server = await launchServer({ DATA_DIR: "memory", ...UNLIMITED_RATE });
  shop = await startShop(server.url, BASELINE);
  const env = { centre: server.url, shop: shop.url, baseline: Boolean(BASELINE) };
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  await round(browser, env);
  const rounds = [];
  for (let i = 0; i < RUNS; i++) rounds.push(await round(browser, env));
  printTables(rounds, env.baseline);
} catch (error) {
  console.error(`host-page bench failed: ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 1;
} finally {
  await browser?.close().catch(() => {});
  await shop?.close();
  await server?.stop();
}
