// Opening a long conversation in the widget and in the agent console (issue 61), in headless
// Chromium with the CPU throttled 4× (BENCH_CPU), against the local contact centre
// (packages/server/dist, PGlite in memory, no rate limits). Chats of 50 and 5,000 of the
// visitor's messages, each with an advisor of its own (sent over the participant API after the
// advisor accepted); each round, interleaved, a fresh page resumes each chat: the widget's
// through its session storage as the previous page would leave it, the console's through the
// advisor's sign-in kept in session storage (a reload):
//   open   — navigation start → the newest message shown in the log;
//   nodes  — the message nodes in the log once it is shown;
//   oldest — Home on the log, pressed as each older page arrives, → the oldest message shown
//            (BENCH_OLDEST=0 skips it).
// BENCH_RUNS (default 5) the rounds; one warm-up round is not counted. Build first: npm run build.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { AgentApiPath } from "@chat-widget/protocol";
import { Advisor, isPicker, json, startChat } from "./support/chats.mjs";
import { launchServer, UNLIMITED_RATE } from "./support/server-launch.mjs";
import { ms, summarise } from "./support/stats.mjs";
import { connectParticipant, sendMessage, waitForItem } from "./support/wire.mjs";

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

/** Where each surface's log is, and how a fresh page resumes a seeded chat in it. */
const SURFACES = {
  widget: {
    path: "/",
    log: "chat-widget .transcript",
    storage: (seeded) => [
      "chat-widget:chat",
      { chat: seeded.chat, visible: true, handledUntil: "\uffff" },
    ],
  },
  console: {
    path: "/agent/",
    log: ".chat-view .transcript",
    storage: (seeded) => ["agent-console.auth", seeded.auth],
  },
};

/**
 * A chat an advisor of its own (bench1, bench2, …) accepted, whose visitor then wrote `count`
 * messages: its start-chat result and the advisor's sign-in as the console keeps it.
 */
async function seededChat(base, count, username) {
  const signedIn = await json(base, AgentApiPath.SignIn, {
    body: { Username: username, Password: "demo" },
  });
  await json(base, AgentApiPath.Availability, {
    method: "PUT",
    token: signedIn.Token,
    body: { Availability: "Available" },
  });
  const chat = await startChat(base);
  const customer = await connectParticipant(base, chat.ParticipantToken);
  await waitForItem(base, customer, isPicker);
  await sendMessage(base, customer.connectionToken, "Talk to an advisor");
  await new Advisor(base, signedIn.Token).accept(chat.ContactId);
  const { socket, connectionToken } = customer;
  let next = 1;
  const sender = async () => {
    while (next <= count) await sendMessage(base, connectionToken, said(next++));
  };
  await Promise.all(Array.from({ length: SEND_CONCURRENCY }, sender));
  socket.close();
  return { chat, auth: { token: signedIn.Token, advisor: signedIn.Advisor } };
}

/** Whether a message with `text` is in the log (the widget's in its shadow root). */
function shownAt([selector, text]) {
  const log = selector.startsWith("chat-widget ")
    ? document.querySelector("chat-widget")?.shadowRoot?.querySelector(".transcript")
    : document.querySelector(selector);
  if (!log) return false;
  for (const m of log.querySelectorAll(".message")) if (m.textContent.includes(text)) return true;
  return false;
}

/** A fresh page of `surface` resuming the seeded chat, as a reload would: the figures. */
async function open(browser, base, surface, seeded, count) {
  const { path, log: selector, storage } = SURFACES[surface];
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(([key, value]) => {
      sessionStorage.setItem(key, JSON.stringify(value));
    }, storage(seeded));
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
    await page.goto(`${base}${path}`, { waitUntil: "commit", timeout: STEP_TIMEOUT_MS });
    await page.waitForFunction(shownAt, [selector, said(count)], {
      polling: "raf",
      timeout: STEP_TIMEOUT_MS,
    });
    const open = await page.evaluate(() => performance.now());
    const log = page.locator(selector);
    const nodes = await log.evaluate((el) => el.querySelectorAll(".message").length);
    if (!OLDEST) return { open, nodes };
    const started = await page.evaluate(() => performance.now());
    await log.focus();
    let maxNodes = nodes;
    // Looked for each frame the whole way (its timeout left unhandled would end the bench).
    const oldestShown = page
      .waitForFunction(shownAt, [selector, said(1)], { polling: "raf", timeout: 0 })
      .catch(() => {});
    while (!(await page.evaluate(shownAt, [selector, said(1)]))) {
      const older = page
        .waitForResponse((r) => r.url().includes("/participant/transcript"), {
          timeout: STEP_TIMEOUT_MS,
        })
        .then(() => page.evaluate(() => new Promise((done) => requestAnimationFrame(done))));
      await page.keyboard.press("Home");
      await Promise.race([older, oldestShown]);
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

const server = await launchServer({ ...UNLIMITED_RATE, BENCH_ADVISORS: String(SIZES.length) });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
});
try {
  const chats = {};
  for (const [i, count] of SIZES.entries()) {
    const t0 = performance.now();
    chats[count] = await seededChat(server.url, count, `bench${i + 1}`);
    console.log(`seeded ${count} messages in ${ms(performance.now() - t0)}`);
  }
  const cases = Object.keys(SURFACES).flatMap((surface) =>
    SIZES.map((count) => ({ surface, count, results: [] })),
  );
  for (let round = 0; round <= RUNS; round++) {
    for (const c of cases) {
      const result = await open(browser, server.url, c.surface, chats[c.count], c.count);
      if (round > 0) c.results.push(result);
    }
  }
  console.log(`\nOpening a long chat: CPU ${CPU}×, ${RUNS} rounds (median [min–max])`);
  const nodeCount = (n) => String(Math.round(n));
  const row = (label, values, format = ms) => {
    const s = summarise(values);
    return `${label}: ${format(s.median)} [${format(s.min)}–${format(s.max)}]`;
  };
  const rows = [
    ["navigation → newest shown", "open", ms],
    ["message nodes in the log", "nodes", nodeCount],
    ...(OLDEST
      ? [
          ["Home … → oldest shown", "oldest", ms],
          ["most message nodes on the way", "maxNodes", nodeCount],
        ]
      : []),
  ];
  for (const { surface, count, results } of cases) {
    console.log(`\n${surface}, ${count} messages`);
    for (const [label, key, format] of rows)
      console.log(
        `  ${row(
          label,
          results.map((x) => x[key]),
          format,
        )}`,
      );
  }
  const median = (surface, count) =>
    summarise(
      cases.find((c) => c.surface === surface && c.count === count).results.map((x) => x.open),
    ).median;
  for (const surface of Object.keys(SURFACES)) {
    const ratio = median(surface, 5000) / median(surface, 50);
    console.log(
      `\n${surface}: open 5,000 ÷ open 50 (medians): ${ratio.toFixed(2)}× (target ≤ 1.5×)`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
