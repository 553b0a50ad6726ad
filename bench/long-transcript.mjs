// Opening a long conversation in the widget (issue 61), in headless Chromium with the CPU
// throttled 4× (BENCH_CPU), against the local contact centre (packages/server/dist, PGlite in
// memory, no rate limits). Chats of 50 and 5,000 of the visitor's messages (sent over the
// participant API, then handed to the widget through its session storage as the previous page
// would leave it); each round, interleaved, a fresh page resumes each chat:
//   open   — navigation start → the newest message shown in the log;
//   nodes  — the message nodes in the log once it is shown;
//   oldest — Home on the log, pressed as each older page arrives, → the oldest message shown
//            (BENCH_OLDEST=0 skips it).
// BENCH_RUNS (default 5) the rounds; one warm-up round is not counted. Build first: npm run build.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startChat } from "./support/chats.mjs";
import { launchServer, UNLIMITED_RATE } from "./support/server-launch.mjs";
import { ms, summarise } from "./support/stats.mjs";
import { connectParticipant, sendMessage } from "./support/wire.mjs";

const CHROMIUM = "/usr/bin/chromium";
const WIDGET = fileURLToPath(new URL("../packages/widget/dist/chat-widget.js", import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CPU = Number(process.env.BENCH_CPU ?? 4);
const OLDEST = process.env.BENCH_OLDEST !== "0";
const SIZES = [50, 5000];
const STEP_TIMEOUT_MS = 120_000;
/** Messages sent at once while seeding. */
const SEND_CONCURRENCY = 8;

for (const [ok, message] of [
  [Number.isInteger(RUNS) && RUNS >= 1, "BENCH_RUNS must be a positive integer"],
  [CPU >= 1, "BENCH_CPU must be 1 or more"],
  [existsSync(WIDGET), `missing ${WIDGET}: npm run build`],
  [existsSync(CHROMIUM), "install Chromium at /usr/bin/chromium"],
])
  if (!ok) {
    console.error(message);
    process.exit(1);
  }

const said = (n) => `Message ${n} of the long chat.`;

/** A chat whose visitor has written `count` messages: its start-chat result. */
async function seededChat(base, count) {
  const chat = await startChat(base);
  const { socket, connectionToken } = await connectParticipant(base, chat.ParticipantToken);
  let next = 1;
  const sender = async () => {
    while (next <= count) await sendMessage(base, connectionToken, said(next++));
  };
  await Promise.all(Array.from({ length: SEND_CONCURRENCY }, sender));
  socket.close();
  return chat;
}

/** The newest (or `n`th) message of the chat in the widget's log, looked for each frame. */
function shownAt(text) {
  const log = document.querySelector("chat-widget")?.shadowRoot?.querySelector(".transcript");
  if (!log) return false;
  for (const m of log.querySelectorAll(".message")) if (m.textContent.includes(text)) return true;
  return false;
}

/** A fresh page resuming `chat`, as the next page of the site would: the figures. */
async function open(browser, base, chat, count) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(
      (stored) => {
        sessionStorage.setItem("chat-widget:chat", JSON.stringify(stored));
      },
      { chat, visible: true, handledUntil: "\uffff" },
    );
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
    await page.goto(`${base}/`, { waitUntil: "commit", timeout: STEP_TIMEOUT_MS });
    await page.waitForFunction(shownAt, said(count), { polling: "raf", timeout: STEP_TIMEOUT_MS });
    const open = await page.evaluate(() => performance.now());
    const log = page.locator("chat-widget .transcript");
    const nodes = await log.evaluate((el) => el.querySelectorAll(".message").length);
    if (!OLDEST) return { open, nodes };
    const started = await page.evaluate(() => performance.now());
    await log.focus();
    let maxNodes = nodes;
    while (!(await page.evaluate(shownAt, said(1)))) {
      const older = page
        .waitForResponse((r) => r.url().includes("/participant/transcript"), {
          timeout: STEP_TIMEOUT_MS,
        })
        .then(() => page.evaluate(() => new Promise((done) => requestAnimationFrame(done))));
      await page.keyboard.press("Home");
      await Promise.race([older, page.waitForFunction(shownAt, said(1), { polling: "raf" })]);
      maxNodes = Math.max(
        maxNodes,
        await log.evaluate((el) => el.querySelectorAll(".message").length),
      );
    }
    const oldest = (await page.evaluate(() => performance.now())) - started;
    return { open, nodes, oldest, maxNodes };
  } finally {
    await context.close();
  }
}

const server = await launchServer(UNLIMITED_RATE);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
});
try {
  const chats = {};
  for (const count of SIZES) {
    const t0 = performance.now();
    chats[count] = await seededChat(server.url, count);
    console.log(`seeded ${count} messages in ${ms(performance.now() - t0)}`);
  }
  const results = Object.fromEntries(SIZES.map((count) => [count, []]));
  for (let round = 0; round <= RUNS; round++) {
    for (const count of SIZES) {
      const result = await open(browser, server.url, chats[count], count);
      if (round > 0) results[count].push(result);
    }
  }
  console.log(
    `\nOpening a long chat in the widget: CPU ${CPU}×, ${RUNS} rounds (median [min–max])`,
  );
  const nodeCount = (n) => String(Math.round(n));
  const row = (label, values, format = ms) => {
    const s = summarise(values);
    return `${label}: ${format(s.median)} [${format(s.min)}–${format(s.max)}]`;
  };
  for (const count of SIZES) {
    const r = results[count];
    console.log(`\n${count} messages`);
    console.log(
      `  ${row(
        "navigation → newest shown",
        r.map((x) => x.open),
      )}`,
    );
    console.log(
      `  ${row(
        "message nodes in the log",
        r.map((x) => x.nodes),
        nodeCount,
      )}`,
    );
    if (OLDEST) {
      console.log(
        `  ${row(
          "Home … → oldest shown",
          r.map((x) => x.oldest),
        )}`,
      );
      console.log(
        `  ${row(
          "most message nodes on the way",
          r.map((x) => x.maxNodes),
          nodeCount,
        )}`,
      );
    }
  }
  const ratio =
    summarise(results[5000].map((x) => x.open)).median /
    summarise(results[50].map((x) => x.open)).median;
  console.log(`\nopen 5,000 ÷ open 50 (medians): ${ratio.toFixed(2)}× (target ≤ 1.5×)`);
} finally {
  await browser.close();
  await server.stop();
}
