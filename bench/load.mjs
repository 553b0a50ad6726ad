// Issue 27: the contact centre under load, measured from outside by an independent generator
// (bench/support/wire.mjs: http + ws speaking the participant protocol, none of our client),
// beside a bare `ws` relay measured in the same run as the baseline. Where `taskset` exists the
// server (or the relay) runs on core 0, and this generator and PostgreSQL's processes on core 1.
//   relay     the bare relay, customer → advisor, closed loop per pair: msgs/s, latency
//   warm-up   the advisor-held chats' first seconds of traffic on a fresh server (closed loop),
//             reported apart: a fresh server is slower until warm
//   offered   advisor-held chats, the customers together offering a fixed rate (open loop; each
//             chat sends one message at a time, as a real client): delivered msgs/s,
//             p50/p95/p99 from the moment a message was due → advisor's websocket, nothing lost;
//             the server's and the generator's CPU
//   saturate  the same chats, each customer sending its next message once the last reached
//             its advisor (closed loop): msgs/s delivered and its latency
//   setup     start-chat + CreateParticipantConnection + subscribe, many at once: chats/s
//   idle      connected chats holding their websockets with heartbeats: server memory per
//             chat and its CPU while idle; the bare relay holding as many sockets with the same
//             heartbeats is its baseline. A generator process of their own holds them
//             (support/idle-holder.mjs), so this one comes fresh to the message scenarios
// On PGlite (the default store), on PostgreSQL (127.0.0.1:5432, skipped when it does not
// answer), and for the message scenarios on PostgreSQL + Redis with two processes (customers on
// one, advisors on the other, both on the server's core; skipped without Redis at
// 127.0.0.1:6379). Quick by default (a few seconds each); `node bench/load.mjs --full` runs the
// issue's table (200 chats; 100, 2,000 and 5,000 msgs/s offered; 2,000 set-ups; 20,000 idle);
// `--profile` instead profiles the PGlite server under the closed loop (V8's CPU profiler, the
// start-up and warm-up left out) and prints its top 10 modules and functions by self time;
// `--profile setup` does so under set-ups, `--profile postgres` on PostgreSQL; `--promises
// [postgres]` counts the promises the server makes a message under the closed loop (a count,
// unlike a time the same on a slow day); `--window [postgres] [rate…]` runs only the offered
// rates (5,000 unless given; the full run's 200 chats and 10 s with --full) and says what the
// machine, PostgreSQL and the server's event loop did meanwhile.
// The per-participant, start-chat and per-address websocket limits are lifted: this measures
// the server. The full run holds 20,000 idle chats, or as many as `ulimit -n` lets each side
// hold (its limit less 1,000).
// Build first (npm run build).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { topFunctions, topModules } from "./support/cpu-profile.mjs";
import { percentile } from "./support/percentiles.mjs";
import {
  canPin,
  cpuSeconds,
  forkOn,
  launchServer,
  pinProcessesNamed,
  UNLIMITED_RATE,
} from "./support/server-launch.mjs";
import {
  postgresCommits,
  postgresSchema,
  REDIS_URL,
  redisUnavailable,
} from "./support/services.mjs";
import { Advisor, sleep } from "./support/chats.mjs";
import { machineProbe } from "./support/machine-probe.mjs";
import { SETUP_PARALLEL, setups } from "./support/setups.mjs";
import { advisorChat, HEARTBEAT_MS, relaySocket, sendMessage } from "./support/wire.mjs";

const FULL = process.argv.includes("--full");
/** Open files this process may hold (each idle chat is a socket here and one in the server). */
const FILE_LIMIT = Number(execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim());
const PLAN = FULL
  ? {
      chats: 200,
      rates: [100, 2000, 5000],
      seconds: 10,
      setups: 2000,
      // 20,000, or as many as the open-file limit lets both sides hold.
      idle: Math.min(20000, (Number.isFinite(FILE_LIMIT) ? FILE_LIMIT : 20000) - 1000),
      hold: 60,
    }
  : { chats: 20, rates: [100, 500], seconds: 3, setups: 300, idle: 500, hold: 5 };
/** Half an advisor's 10 chats: set-ups in flight never meet the limit. */
const CHATS_PER_ADVISOR = 5;
/** The closed loop that warms a fresh server before the message scenarios are measured. */
const WARM_SECONDS = Math.min(5, PLAN.seconds);
const DRAIN_MS = 30_000;
const QUIET_MS = 120_000;
const RELAY = fileURLToPath(new URL("./support/relay-process.mjs", import.meta.url));
const HOLDER = fileURLToPath(new URL("./support/idle-holder.mjs", import.meta.url));
const PINNED = canPin() && availableParallelism() >= 2;
if (PINNED) execFileSync("taskset", ["-pc", "1", String(process.pid)], { stdio: "ignore" });
// PostgreSQL on the generator's core too, so that the server's core is the server's alone (its
// backends otherwise ran on either core); set back as it was when the bench exits.
const POSTGRES_PINNED = PINNED ? pinProcessesNamed("postgres", 1) : { count: 0, restore() {} };
process.once("exit", () => POSTGRES_PINNED.restore());
// Interrupted (Ctrl-C) or stopped, it exits as it would have, the masks set back first.
for (const signal of ["SIGINT", "SIGTERM"])
  process.once(signal, () => process.exit(128 + (signal === "SIGINT" ? 2 : 15)));

/** Progress on stderr; the table goes to stdout. */
const progress = (text) => process.stderr.write(`load: ${text}\n`);
const round = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en") : "—");
const ms = (n) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(1) : Math.round(n)} ms` : "—");
const latencies = (values) =>
  `p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, p99 ${ms(percentile(values, 99))}`;

function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

/** The bare relay on the server's core: its child process and websocket URL. */
async function startRelay() {
  const child = forkOn(RELAY, {
    cpu: 0,
    env: process.env,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { url } = await new Promise((resolve) => child.once("message", resolve));
  return { child, open: (query) => relaySocket(url, query), url };
}

/**
 * `count` idle connections (to the relay at `relay`, or chats set up on the server at `server`)
 * held by a generator process of its own (support/idle-holder.mjs), on this generator's core:
 * how many it holds, and `release()`, which closes them and waits for that process to exit.
 */
async function holdIdle(target) {
  const child = forkOn(HOLDER, {
    cpu: PINNED ? 1 : undefined,
    env: process.env,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  child.send(target);
  const held = await Promise.race([
    new Promise((resolve) => child.once("message", resolve)),
    exited.then((code) => Promise.reject(new Error(`the idle holder exited (${code})`))),
  ]);
  reportRefused(held.reasons);
  const release = async () => {
    child.send("close");
    await exited;
  };
  return { ...held, release };
}

/**
 * The bare relay holding `count` sockets, each sending aws/heartbeat every HEARTBEAT_MS from a
 * random moment (as chats set up over time do), for `hold` seconds: memory per socket, CPU.
 */
async function relayIdle(count, hold) {
  const { child, url } = await startRelay();
  try {
    const before = rssKb(child.pid);
    const idle = await holdIdle({ relay: url, count });
    await sleep(HEARTBEAT_MS); // every socket beats
    const cpu0 = cpuSeconds(child.pid);
    await sleep(hold * 1000);
    const cpu = (cpuSeconds(child.pid) - cpu0) / hold;
    const kb = (rssKb(child.pid) - before) / idle.held;
    await idle.release();
    return { sockets: idle.held, kb, cpu };
  } finally {
    child.kill("SIGTERM");
  }
}

/** The bare relay, closed loop per pair for `seconds`: msgs/s and latencies. */
async function relayBaseline(pairs, seconds) {
  const { child, open } = await startRelay();
  const samples = [];
  let running = true;
  let delivered = 0;
  const sockets = [];
  for (let pair = 0; pair < pairs; pair++) {
    const advisor = await open(`pair=${pair}&role=advisor`);
    const customer = await open(`pair=${pair}&role=customer`);
    sockets.push(advisor, customer);
    const send = () => customer.send(String(performance.now()));
    advisor.on("message", (data) => {
      samples.push(performance.now() - Number(String(data)));
      delivered++;
      if (running) send();
    });
    await sleep(10); // the relay has registered the advisor before the first frame
    send();
  }
  const started = performance.now();
  delivered = 0;
  samples.length = 0;
  await sleep(seconds * 1000);
  running = false;
  const elapsed = (performance.now() - started) / 1000;
  for (const ws of sockets) ws.terminate();
  child.kill("SIGTERM");
  return { rate: delivered / elapsed, samples };
}

/**
 * Advisor-held chats on a running server, set up ten at a time; the advisors work on
 * `advisorBase` (another process of the same contact centre) when given.
 */
async function heldChats(base, count, advisorBase = base) {
  const advisors = [];
  for (let n = 1; n <= Math.ceil(count / CHATS_PER_ADVISOR); n++)
    advisors.push(await Advisor.signIn(advisorBase, `bench${n}`));
  const chats = [];
  for (let i = 0; i < count; i += 10) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 10); j++)
      batch.push(advisorChat(base, advisors[j % advisors.length]));
    chats.push(...(await Promise.all(batch)));
  }
  return chats;
}

/**
 * Customer messages to their advisors: `offered` msgs/s spread over the chats (open loop), or
 * with `offered` null each chat closed loop. Counts what was acknowledged, delivered, lost, and
 * the generator's own CPU (a busy generator measures itself, not the server).
 *
 * The open loop models real visitors: each chat sends one message at a time, the next once the
 * last was acknowledged (as our outbox and amazon-connect-chatjs do, over a kept-alive
 * connection), so what is due while one is in flight waits in that chat's outbox. A message's
 * latency runs from the moment it was due (the visitor pressed Send) to its advisor's websocket:
 * the wait in the outbox counts, as the visitor sees it. `serverCpu()` is the server's CPU
 * seconds so far (summed over its processes).
 */
async function traffic(base, chats, offered, seconds, serverCpu) {
  /** Content → when it was due and when posted (left its outbox), until its advisor has it. */
  const sent = new Map();
  const samples = [];
  /** Per message delivered: its wait in the outbox (due → posted) and the rest (→ delivered). */
  const outboxWaits = [];
  const serverTimes = [];
  /** Per second of the window (by when the message was due): its latencies. */
  const perSecond = [];
  let acknowledged = 0;
  let failed = 0;
  const reasons = new Set();
  let lastDelivery = 0;
  const listeners = chats.map((chat) => {
    const listener = (item) => {
      const message = sent.get(item.Content);
      if (message === undefined || item.ParticipantRole !== "CUSTOMER") return;
      sent.delete(item.Content);
      const { due: at, posted } = message;
      lastDelivery = performance.now();
      samples.push(lastDelivery - at);
      outboxWaits.push(posted - at);
      serverTimes.push(lastDelivery - posted);
      (perSecond[Math.floor((at - started) / 1000)] ??= []).push(lastDelivery - at);
      chat.next?.();
    };
    chat.advisor.socket.listeners.add(listener);
    return () => chat.advisor.socket.listeners.delete(listener);
  });
  let seq = 0;
  /** Per chat: its messages due and not yet sent, and whether one is in flight. */
  const outboxes = new Map(chats.map((chat) => [chat, { queue: [], busy: false }]));
  /** Once the drain is over: what is still in an outbox stays unsent (not the next scenario's). */
  let stopped = false;
  const pump = (chat) => {
    const outbox = outboxes.get(chat);
    if (stopped || outbox.busy || outbox.queue.length === 0) return;
    outbox.busy = true;
    const content = outbox.queue.shift();
    sent.get(content).posted = performance.now();
    sendMessage(base, chat.customer.connectionToken, content)
      .then(
        () => acknowledged++,
        (error) => {
          failed++;
          reasons.add(`${String(error.message).slice(0, 120)} ${error.code ?? ""}`.trim());
          sent.delete(content);
        },
      )
      .then(() => {
        outbox.busy = false;
        pump(chat);
      });
  };
  const queue = (chat, dueAt) => {
    const content = `load ${++seq}`;
    sent.set(content, { due: dueAt, posted: NaN });
    outboxes.get(chat).queue.push(content);
    pump(chat);
  };
  const cpu0 = process.cpuUsage();
  const server0 = serverCpu();
  const started = performance.now();
  const until = started + seconds * 1000;
  let offeredCount = 0;
  if (offered) {
    // What is due by now, however late this loop's timer fires on a busy generator: the rate
    // offered is the rate asked for, not what the timer let through. Message n is due at
    // (n + 1) / offered s; a millisecond's tick queues it within about one of that.
    const TICK_MS = 1;
    while (performance.now() < until) {
      const due = Math.floor(((performance.now() - started) * offered) / 1000);
      for (; offeredCount < due; offeredCount++) {
        queue(chats[offeredCount % chats.length], started + ((offeredCount + 1) * 1000) / offered);
      }
      await sleep(TICK_MS);
    }
  } else {
    for (const chat of chats)
      chat.next = () => {
        if (performance.now() < until) queue(chat, performance.now());
      };
    for (const chat of chats) queue(chat, performance.now());
    await sleep(seconds * 1000);
  }
  const window = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu0);
  const serverBusy = (serverCpu() - server0) / (window / 1000);
  const waiting = () => [...outboxes.values()].some((o) => o.busy || o.queue.length > 0);
  const drainUntil = performance.now() + DRAIN_MS;
  while ((sent.size > 0 || waiting()) && performance.now() < drainUntil) await sleep(20);
  stopped = true;
  const unsent = [...outboxes.values()].reduce((n, o) => n + o.queue.length, 0);
  for (const chat of chats) delete chat.next;
  for (const stop of listeners) stop();
  if (reasons.size) progress(`refused: ${[...reasons].slice(0, 3).join(" | ")}`);
  return {
    rate: samples.length / ((lastDelivery - started) / 1000),
    samples,
    outboxWaits,
    serverTimes,
    perSecond,
    acknowledged,
    failed,
    lost: acknowledged - samples.length,
    unsent,
    generatorBusy: (user + system) / 1000 / window,
    serverBusy,
  };
}

/** Why set-ups were refused (at most three reasons), on stderr. */
const reportRefused = (reasons) => {
  for (const reason of reasons) progress(`refused: ${reason}`);
};

/**
 * Until the server has done with what came before (thousands of chats just closed mark their
 * participants disconnected): its core under 5 % busy for a second, or at most QUIET_MS.
 */
async function quiet(server) {
  const until = performance.now() + QUIET_MS;
  while (performance.now() < until) {
    const cpu0 = server.cpuSeconds();
    await sleep(1000);
    if (server.cpuSeconds() - cpu0 < 0.05) return;
  }
  progress(`the server was still busy after ${QUIET_MS / 1000} s`);
}

/** The server's settings for the bench: limits lifted, enough advisors for the chats. */
const serverEnv = () => ({
  ...UNLIMITED_RATE,
  // Every chat of the generator comes from one loopback address.
  WEBSOCKETS_PER_ADDRESS: "1000000",
  BENCH_ADVISORS: String(Math.ceil(PLAN.chats / CHATS_PER_ADVISOR)),
});

async function measureStore(name, env) {
  const server = await launchServer({ ...serverEnv(), ...env }, { cpu: 0 });
  const rows = [];
  try {
    // First, on the fresh server: what connected chats cost, without what traffic left behind.
    progress(`${name}: ${PLAN.idle} idle chats`);
    // Both readings after a full collection: the start-up's garbage is not taken for the chats'.
    const before = await server.ask({ memory: "settled" });
    const idle = await holdIdle({ server: server.url, count: PLAN.idle });
    const cpu0 = server.cpuSeconds();
    await sleep(PLAN.hold * 1000);
    const cpu = (server.cpuSeconds() - cpu0) / PLAN.hold;
    const during = await server.ask({ memory: "settled" });
    const each = (bytes) => (bytes / 1024 / idle.held).toFixed(1);
    rows.push([
      `${name}: ${round(idle.held)} connected chats held ${PLAN.hold} s`,
      `${each(during.rss - before.rss)} KB each (RSS; heap ${each(during.heapUsed - before.heapUsed)} KB); server CPU ${(cpu * 100).toFixed(1)} %; refused ${idle.refused}`,
    ]);
    await idle.release();
    await quiet(server);
    rows.push(...(await messageScenarios(name, server.cpuSeconds, server.url)));

    await quiet(server);
    progress(`${name}: ${PLAN.setups} set-ups`);
    const cpuBefore = server.cpuSeconds();
    const set = await setups(server.url, PLAN.setups);
    reportRefused(set.reasons);
    const busy = (server.cpuSeconds() - cpuBefore) / set.seconds;
    rows.push([
      `${name}: chat set-up, ${round(PLAN.setups)} chats, ${SETUP_PARALLEL} at a time`,
      `**${round(set.rate)} chats/s**; each p50 ${ms(percentile(set.each, 50))}, p99 ${ms(percentile(set.each, 99))}; server CPU ${(busy * 100).toFixed(0)} %; refused ${set.refused}`,
    ]);
    for (const socket of set.sockets) socket.close();
  } finally {
    await server.stop();
  }
  return rows;
}

/**
 * PostgreSQL + Redis, two processes, both on the server's core: every customer on one, every
 * advisor on the other, so each message crosses Redis. The message scenarios only.
 */
async function measureTwoProcesses(env) {
  const a = await launchServer({ ...serverEnv(), ...env }, { cpu: 0 });
  const b = await launchServer({ ...serverEnv(), ...env }, { cpu: 0 }).catch(async (error) => {
    await a.stop();
    throw error;
  });
  try {
    const cpu = () => a.cpuSeconds() + b.cpuSeconds();
    return await messageScenarios("PostgreSQL + Redis, 2 processes", cpu, a.url, b.url);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}

/**
 * The message scenarios on advisor-held chats (customers on `base`, advisors on `advisorBase`):
 * each offered rate, then saturation; their table rows. `serverCpu` as for traffic.
 */
async function messageScenarios(name, serverCpu, base, advisorBase = base) {
  const rows = [];
  progress(`${name}: ${PLAN.chats} advisor-held chats`);
  const chats = await heldChats(base, PLAN.chats, advisorBase);
  // A fresh server is slower for its first thousands of messages (session 23: 2,000 msgs/s
  // offered to it ran 1.4 s late for 2 s, then drained; after 5 s of the closed loop, p99 44 ms):
  // warmed first, its cold figure its own row.
  progress(`${name}: warm-up`);
  const warm = await traffic(base, chats, null, WARM_SECONDS, serverCpu);
  rows.push([
    `${name}: warm-up, the first ${WARM_SECONDS} s of traffic (closed loop), ${PLAN.chats} chats`,
    `${round(warm.rate)} msgs/s; ${latencies(warm.samples)}; lost ${warm.lost}; ${cpus(warm)}`,
  ]);
  for (const rate of PLAN.rates) {
    progress(`${name}: ${rate} msgs/s offered`);
    const r = await traffic(base, chats, rate, PLAN.seconds, serverCpu);
    rows.push([
      `${name}: ${round(rate)} msgs/s offered, ${PLAN.chats} chats`,
      `${round(r.rate)} msgs/s delivered; ${latencies(r.samples)}; lost ${r.lost}, refused ${r.failed}${r.unsent ? `, unsent after the drain ${r.unsent}` : ""}; ${cpus(r)}`,
    ]);
  }
  progress(`${name}: saturation`);
  const s = await traffic(base, chats, null, PLAN.seconds, serverCpu);
  rows.push([
    `${name}: saturation (closed loop), ${PLAN.chats} chats`,
    `**${round(s.rate)} msgs/s**; ${latencies(s.samples)}; lost ${s.lost}; ${cpus(s)}`,
  ]);
  closeChats(chats);
  return rows;
}

/** A traffic window's CPU: the server's (all its processes) and this generator's. */
const cpus = (r) =>
  `CPU server ${(r.serverBusy * 100).toFixed(0)} %, generator ${(r.generatorBusy * 100).toFixed(0)} %`;

function closeChats(chats) {
  for (const chat of chats) {
    chat.customer.socket.close();
    chat.advisor.socket.close();
  }
}

/**
 * `--profile [setup] [postgres]`: the server's CPU profile (V8's sampler, as `node --cpu-prof`)
 * over the closed loop, warmed first (or over set-ups), without its start-up, on the store `env`
 * names; its top 10 modules and functions by self time, and what was measured meanwhile.
 */
async function profile(env, scenario) {
  const dir = mkdtempSync(join(tmpdir(), "load-profile-"));
  const file = join(dir, "server.cpuprofile");
  const server = await launchServer({ ...serverEnv(), ...env }, { cpu: 0 });
  let measured;
  try {
    if (scenario === "setup") {
      // Each set-up holds a socket on both sides until the profile is written: within the
      // open-file limit, or the server cannot open the profile's file (EMFILE).
      const count = Math.min(PLAN.setups * 10, FILE_LIMIT - 1000);
      progress(`profile: ${count} set-ups`);
      await server.ask({ profile: "start" });
      const cpu0 = server.cpuSeconds();
      const set = await setups(server.url, count);
      reportRefused(set.reasons);
      const each = ((server.cpuSeconds() - cpu0) * 1000) / count;
      await server.ask({ profile: "stop", file });
      for (const socket of set.sockets) socket.close();
      measured = `${count} set-ups, ${round(set.rate)} chats/s, ${ms(each)} of the server's core each`;
    } else {
      progress(`profile: ${PLAN.chats} advisor-held chats, saturation ${PLAN.seconds * 3} s`);
      const chats = await heldChats(server.url, PLAN.chats);
      await traffic(server.url, chats, null, WARM_SECONDS, server.cpuSeconds);
      await server.ask({ profile: "start" });
      const r = await traffic(server.url, chats, null, PLAN.seconds * 3, server.cpuSeconds);
      await server.ask({ profile: "stop", file });
      closeChats(chats);
      const each = (r.serverBusy * 1000) / r.rate;
      measured = `closed loop, ${PLAN.chats} chats: ${round(r.rate)} msgs/s, ${each.toFixed(3)} ms of the server's core a message`;
    }
  } finally {
    await server.stop();
  }
  const top = { measured, modules: topModules(file, 10), functions: topFunctions(file, 10) };
  rmSync(dir, { recursive: true, force: true });
  return top;
}

/**
 * `--promises [postgres]`: the promises the server makes a message under the closed loop, warmed
 * first (counted with async_hooks; a count, not a time, so the same on a slow day). Each costs an
 * allocation and a turn of the microtask queue.
 */
async function promisesPerMessage(env) {
  const server = await launchServer({ ...serverEnv(), ...env }, { cpu: 0 });
  try {
    const chats = await heldChats(server.url, PLAN.chats);
    await traffic(server.url, chats, null, WARM_SECONDS, server.cpuSeconds);
    await server.ask({ promises: "start" });
    const r = await traffic(server.url, chats, null, PLAN.seconds, server.cpuSeconds);
    const { promises } = await server.ask({ promises: "stop" });
    closeChats(chats);
    return { promises: promises / r.acknowledged, messages: r.acknowledged };
  } finally {
    await server.stop();
  }
}

/**
 * `--window [postgres] [rate…]`: the offered rates alone (5,000 msgs/s unless given) on a
 * warmed server, each with what happened meanwhile, to lay a tail to its cause: the latency
 * split into the wait in the chat's outbox and the rest (posted → the advisor's websocket), the
 * p99 of each second, each core's busy share (mean, busiest 100 ms), PostgreSQL's CPU and
 * transactions a message, the server's event-loop delay and garbage-collection pauses.
 */
async function windows(env, name, rates) {
  const server = await launchServer({ ...serverEnv(), ...env }, { cpu: 0 });
  try {
    const chats = await heldChats(server.url, PLAN.chats);
    await traffic(server.url, chats, null, WARM_SECONDS, server.cpuSeconds);
    for (const rate of rates) {
      await quiet(server);
      progress(`${name}: ${rate} msgs/s offered, watched`);
      const commits0 = env.DATABASE_URL ? await postgresCommits() : NaN;
      await server.ask({ loop: "start" });
      const machine = machineProbe();
      const generatorLoop = monitorEventLoopDelay({ resolution: 1 });
      generatorLoop.enable();
      const r = await traffic(server.url, chats, rate, PLAN.seconds, server.cpuSeconds);
      generatorLoop.disable();
      const { cores, postgres } = machine.stop();
      const loop = await server.ask({ loop: "stop" });
      await sleep(1500); // PostgreSQL's statistics reach their view
      const commits = env.DATABASE_URL ? (await postgresCommits()) - commits0 : NaN;
      const p99 = (values) => ms(percentile(values, 99));
      console.log(
        `${name}, ${round(rate)} msgs/s offered, ${PLAN.chats} chats, ${PLAN.seconds} s:`,
      );
      console.log(
        `  delivered ${round(r.rate)} msgs/s; ${latencies(r.samples)}; lost ${r.lost}, refused ${r.failed}; ${cpus(r)}`,
      );
      console.log(
        `  outbox wait ${latencies(r.outboxWaits)}; posted → advisor ${latencies(r.serverTimes)}`,
      );
      console.log(`  p99 each second: ${r.perSecond.map((s) => p99(s ?? [])).join(", ")}`);
      console.log(
        `  cores: ${cores.map((c, i) => `${i} ${(c.mean * 100).toFixed(0)} % (busiest 100 ms ${(c.max * 100).toFixed(0)} %, stolen ${(c.stolen * 100).toFixed(0)} %)`).join(", ")}`,
      );
      if (env.DATABASE_URL)
        console.log(
          `  PostgreSQL: CPU ${(postgres * 100).toFixed(0)} % of a core; ${(commits / r.acknowledged).toFixed(2)} transactions a message (${round(commits)})`,
        );
      console.log(
        `  server event loop: delay p50 ${ms(loop.delay.p50)}, p99 ${ms(loop.delay.p99)}, max ${ms(loop.delay.max)}; GC ${loop.gc.count} pauses, ${ms(loop.gc.ms)} in all, longest ${ms(loop.gc.max)}, ${loop.gc.over10} over 10 ms`,
      );
      const late = (p) => ms(generatorLoop.percentile(p) / 1e6);
      console.log(
        `  generator's event loop: delay p50 ${late(50)}, p99 ${late(99)}, max ${ms(generatorLoop.max / 1e6)}`,
      );
    }
    closeChats(chats);
  } finally {
    await server.stop();
  }
}

/**
 * Runs `measure(env, name)` on the store the arguments name (PostgreSQL with `postgres`, else a
 * fresh PGlite directory), then drops that store and exits.
 */
async function onStoreThenExit(measure) {
  const onPostgres = process.argv.includes("postgres");
  const store = onPostgres
    ? await postgresSchema()
    : { dataDir: mkdtempSync(join(tmpdir(), "load-pglite-")) };
  if (store.unavailable) throw new Error(`PostgreSQL: ${store.unavailable}`);
  try {
    const env = onPostgres ? { DATABASE_URL: store.databaseUrl } : { DATA_DIR: store.dataDir };
    await measure(env, onPostgres ? "PostgreSQL" : "PGlite");
  } finally {
    if (onPostgres) await store.drop();
    else rmSync(store.dataDir, { recursive: true, force: true });
  }
  process.exit(0);
}

if (process.argv.includes("--promises")) {
  await onStoreThenExit(async (env, name) => {
    const { promises, messages } = await promisesPerMessage(env);
    console.log(
      `${name}, closed loop, ${PLAN.chats} chats: ` +
        `${promises.toFixed(1)} promises a message (${round(messages)} messages)`,
    );
  });
}

if (process.argv.includes("--window")) {
  const rates = process.argv.filter((arg) => /^\d+$/.test(arg)).map(Number);
  await onStoreThenExit((env, name) => windows(env, name, rates.length ? rates : [5000]));
}

if (process.argv.includes("--profile")) {
  const scenario = process.argv.includes("setup") ? "setup" : "saturate";
  await onStoreThenExit(async (env, name) => {
    const { measured, modules, functions } = await profile(env, scenario);
    console.log(`${name}, profiled: ${measured}\n`);
    console.log("| self time | module |\n|---|---|");
    for (const [module, share] of modules) console.log(`| ${share} | ${module} |`);
    console.log("\n| self time | function |\n|---|---|");
    for (const [fn, share] of functions) console.log(`| ${share} | ${fn} |`);
  });
}

const rows = [];
progress("bare ws relay");
const relay = await relayBaseline(PLAN.chats, PLAN.seconds);
rows.push([
  `bare ws relay, closed loop, ${PLAN.chats} pairs`,
  `**${round(relay.rate)} msgs/s**; ${latencies(relay.samples)}`,
]);
progress(`bare ws relay: ${PLAN.idle} idle sockets`);
const relayHeld = await relayIdle(PLAN.idle, PLAN.hold);
rows.push([
  `bare ws relay: ${round(relayHeld.sockets)} sockets held ${PLAN.hold} s, heartbeats every ${HEARTBEAT_MS / 1000} s`,
  `${relayHeld.kb.toFixed(1)} KB each (RSS); relay CPU ${(relayHeld.cpu * 100).toFixed(1)} %`,
]);
// The default store: PGlite on disk, in a fresh folder.
const dataDir = mkdtempSync(join(tmpdir(), "load-pglite-"));
try {
  rows.push(...(await measureStore("PGlite", { DATA_DIR: dataDir })));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
const pg = await postgresSchema();
if (pg.unavailable) rows.push(["PostgreSQL", `skipped: ${pg.unavailable}`]);
else {
  try {
    rows.push(...(await measureStore("PostgreSQL", { DATABASE_URL: pg.databaseUrl })));
  } finally {
    await pg.drop();
  }
  const redis = await redisUnavailable();
  if (redis) rows.push(["PostgreSQL + Redis, 2 processes", `skipped: ${redis}`]);
  else {
    const shared = await postgresSchema();
    try {
      rows.push(...(await measureTwoProcesses({ DATABASE_URL: shared.databaseUrl, REDIS_URL })));
    } finally {
      await shared.drop();
    }
  }
}

console.log(
  `${FULL ? "full" : "quick (--full for the issue's table)"}; ${PINNED ? `server on core 0, generator on core 1${POSTGRES_PINNED.count ? " with PostgreSQL" : ""}` : "not pinned (no taskset or one core)"}\n`,
);
console.log("| what | figure |\n|---|---|");
for (const [what, figure] of rows) console.log(`| ${what} | ${figure} |`);
