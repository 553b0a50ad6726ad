// How fast the contact centre itself (packages/server/dist) carries chats, driven over loopback
// by our chat client (its browser build in Node, `ws` for WebSocket) and the server's HTTP APIs:
//   (a) message latency: a customer's SendMessage → the advisor's AGENT session delivers it,
//       one message at a time (BENCH_MESSAGES, default 500, after 50 warm-up messages);
//   (b) throughput: BENCH_CHATS (default 50) advisor chats at once, every customer sending its
//       next message as soon as the last is acknowledged, for BENCH_SECONDS (default 3) per
//       window: messages/s committed (acknowledged) and delivered to the advisors' websockets;
//   (c) start-chat → the flow's first message and the bot's list picker reach the customer.
// Each store in turn, in child processes: PGlite in memory; PostgreSQL (127.0.0.1:5432,
// database `test`, a throw-away schema); PostgreSQL with Redis fan-out, two processes (the
// customer on one, the advisor on the other). The PostgreSQL and Redis variants are skipped,
// with a note, when the service does not answer. The per-participant rate limit is lifted
// (the bench measures the server, not the limiter). BENCH_RUNS (default 7) sets the start-chat
// runs and BENCH_WINDOWS (default 3) the throughput windows; figures are medians of those.
// BENCH_STORES (default "pglite,postgres,redis") picks the variants.
// Build first: npm run build.
import { availableParallelism, loadavg } from "node:os";
import {
  messageLatency,
  pool,
  startChatTimes,
  throughputWindow,
} from "./support/chat-measures.mjs";
import { Advisor, advisorChat, clientPage } from "./support/chats.mjs";
import { launchServer, UNLIMITED_RATE } from "./support/server-launch.mjs";
import { postgresSchema, REDIS_URL, redisUnavailable } from "./support/services.mjs";
import { ms, summarise } from "./support/stats.mjs";

const setting = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a positive integer, got "${process.env[name]}"`);
    process.exit(1);
  }
  return value;
};
const RUNS = setting("BENCH_RUNS", 7);
const MESSAGES = setting("BENCH_MESSAGES", 500);
const WARM_UP_MESSAGES = 50;
const CHATS = setting("BENCH_CHATS", 50);
const SECONDS = setting("BENCH_SECONDS", 2);
const WINDOWS = setting("BENCH_WINDOWS", 3);
const CHATS_PER_ADVISOR = 10; // MAX_CONCURRENT_CHATS of the agent API
const ADVISORS = Math.ceil(CHATS / CHATS_PER_ADVISOR);
const SETUP_PARALLEL = 10;

/** Every measure on servers already running: customers on the first, advisors on the last. */
async function measure(servers) {
  const customerBase = servers[0].url;
  const agentBase = servers.at(-1).url;
  const phases = [];
  let phaseStart = performance.now();
  const phase = (name) => {
    const now = performance.now();
    phases.push(`${name} ${((now - phaseStart) / 1000) | 0} s`);
    phaseStart = now;
  };
  const customerPage = await clientPage(customerBase);
  const agentPage = await clientPage(agentBase);
  const open = (advisor) => advisorChat({ customerBase, customerPage, agentPage, advisor });

  await startChatTimes(customerBase, customerPage); // warm-up
  const starts = [];
  for (let i = 0; i < RUNS; i++) starts.push(await startChatTimes(customerBase, customerPage));
  phase("start-chat");

  const demo = await Advisor.signIn(agentBase, "demo");
  const single = await open(demo);
  const latency = await messageLatency(single, { messages: MESSAGES, warmUp: WARM_UP_MESSAGES });
  await single.customer.leave();
  phase("latency");

  const advisors = [];
  for (let a = 1; a <= ADVISORS; a++) advisors.push(await Advisor.signIn(agentBase, `bench${a}`));
  const chats = await pool(CHATS, SETUP_PARALLEL, (i) => open(advisors[i % ADVISORS]));
  phase(`${CHATS} chats opened`);
  const windows = [];
  for (let w = 0; w < WINDOWS; w++)
    windows.push(await throughputWindow(chats, { window: w, seconds: SECONDS, servers }));
  phase("throughput");
  await pool(CHATS, SETUP_PARALLEL, (i) => chats[i].customer.leave());
  return { starts, latency, windows, phases };
}

const common = { ...UNLIMITED_RATE, BENCH_ADVISORS: String(ADVISORS) };

/** Runs `work` with the servers `envs` describes started in turn; stops them all after. */
async function withServers(envs, work) {
  const servers = [];
  try {
    for (const env of envs) servers.push(await launchServer({ ...common, ...env }));
    return await work(servers);
  } finally {
    for (const server of servers) await server.stop();
  }
}

async function withPostgres(work) {
  const schema = await postgresSchema();
  if (schema.unavailable) return { skipped: `PostgreSQL unavailable (${schema.unavailable})` };
  try {
    return await work(schema.databaseUrl);
  } finally {
    await schema.drop();
  }
}

const VARIANTS = [
  {
    key: "pglite",
    name: "PGlite (memory)",
    run: () => withServers([{ DATA_DIR: "memory" }], measure),
  },
  {
    key: "postgres",
    name: "PostgreSQL",
    run: () => withPostgres((DATABASE_URL) => withServers([{ DATABASE_URL }], measure)),
  },
  {
    key: "redis",
    name: "PostgreSQL + Redis, 2 processes",
    run: async () => {
      const redis = await redisUnavailable();
      if (redis) return { skipped: `Redis unavailable (${redis})` };
      return withPostgres((DATABASE_URL) =>
        withServers(
          [
            { DATABASE_URL, REDIS_URL },
            { DATABASE_URL, REDIS_URL },
          ],
          measure,
        ),
      );
    },
  },
];

const median = (values) => summarise(values)?.median ?? NaN;
const perSecond = (n) => `${Math.round(n)}/s`;
const ms1 = (n) => `${n.toFixed(1)} ms`;

function printTable(results) {
  const measured = results.filter((r) => !r.skipped);
  const rows = [
    ["message latency, send → advisor's websocket: median", (r) => ms1(r.latency.delivered.median)],
    ["message latency: p95", (r) => ms1(r.latency.delivered.p95)],
    ["message latency: p99", (r) => ms1(r.latency.delivered.p99)],
    ["SendMessage acknowledged: median", (r) => ms1(r.latency.acknowledged.median)],
    [
      `${CHATS} chats at once: messages/s committed`,
      (r) => perSecond(median(r.windows.map((w) => w.committed))),
    ],
    [
      `${CHATS} chats at once: messages/s delivered to advisors`,
      (r) => perSecond(median(r.windows.map((w) => w.delivered))),
    ],
    [
      `${CHATS} chats at once: delivery latency median`,
      (r) => ms1(median(r.windows.map((w) => w.latency.median))),
    ],
    [
      `${CHATS} chats at once: delivery latency p99`,
      (r) => ms1(median(r.windows.map((w) => w.latency.p99))),
    ],
    [
      `${CHATS} chats at once: server CPU per message`,
      (r) => ms1(median(r.windows.map((w) => w.serverCpuPerMessage))),
    ],
    [
      `${CHATS} chats at once: messages not delivered`,
      (r) => String(r.windows.reduce((n, w) => n + w.lost, 0)),
    ],
    [
      "start-chat → flow's first message (greeting)",
      (r) => ms(median(r.starts.map((s) => s.first))),
    ],
    ["start-chat → bot's list picker", (r) => ms(median(r.starts.map((s) => s.picker)))],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`| ${"measure".padEnd(width)} | ${measured.map((r) => r.name).join(" | ")} |`);
  console.log(`| ${"-".repeat(width)} |${measured.map(() => " --- |").join("")}`);
  for (const [label, cell] of rows) {
    console.log(`| ${label.padEnd(width)} | ${measured.map(cell).join(" | ")} |`);
  }
  const cpu = measured.map(
    (r) => `${r.name} ${Math.round(100 * median(r.windows.map((w) => w.clientCpu)))}%`,
  );
  console.log(
    `\nlatency: ${MESSAGES} messages one at a time after ${WARM_UP_MESSAGES} warm-up; ` +
      `throughput: medians of ${WINDOWS} windows of ${SECONDS} s, ${CHATS} chats on ${ADVISORS} advisors; ` +
      `start-chat: medians of ${RUNS} runs (plus 1 warm-up). Per-participant rate limit lifted.`,
  );
  console.log(
    `machine load average (1 min) at the end: ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores.`,
  );
  console.log(
    `bench process (all clients) CPU during the throughput windows, of one core: ${cpu.join(", ")}.`,
  );
}

const STORES = (process.env.BENCH_STORES ?? "pglite,postgres,redis").split(",");
const results = [];
let failed = false;
for (const variant of VARIANTS.filter((v) => STORES.includes(v.key))) {
  const t0 = performance.now();
  try {
    const result = await variant.run();
    results.push({ name: variant.name, ...result });
    const note = result.skipped
      ? `skipped: ${result.skipped}`
      : `measured in ${((performance.now() - t0) / 1000) | 0} s (${result.phases.join(", ")})`;
    console.log(`${variant.name}: ${note}`);
  } catch (error) {
    failed = true;
    console.error(`${variant.name} failed: ${error instanceof Error ? error.stack : error}`);
  }
}
if (results.some((r) => !r.skipped)) printTable(results);
// Sessions of ended chats may still hold timers; the figures are out.
process.exit(failed ? 1 : 0);
