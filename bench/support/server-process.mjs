// Child-process entry for bench/server-latency.mjs: the contact centre from its build
// (packages/server/dist), configured from the environment exactly as `npm start` is, on a
// store opened here so that BENCH_ADVISORS extra advisors (usernames bench1…benchN, password
// "demo", 10 chats each) can be seeded beside the demo advisor before it listens. Sends
// { url } to the parent once listening; SIGTERM closes the server and the store. The parent's
// { profile: "start" } and { profile: "stop", file } record a CPU profile of what happens in
// between (V8's sampling profiler, as `node --cpu-prof` but without the start-up) into `file`;
// { promises: "start" } and { promises: "stop" } count the promises made in between (answered
// with { promises: count }); { memory: "settled" } collects every garbage first, then answers
// with { rss, heapUsed } in bytes, so two readings compare the same state of the heap;
// { loop: "start" } and { loop: "stop" } measure the event loop in between (answered with
// { delay: { p50, p99, max }, gc: { count, ms, max, over10 } }, in ms: how late its turns ran, and
// the garbage collector's pauses, their sum, the longest and how many took over 10 ms).
import { createHook } from "node:async_hooks";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { buildApp, listen } from "../../packages/server/dist/app.js";
import { loadConfig } from "../../packages/server/dist/config.js";
import { openDb } from "../../packages/server/dist/store/open-db.js";

const config = loadConfig(process.env);
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const advisors = Number(process.env.BENCH_ADVISORS ?? 0);
if (advisors > 0) {
  // Copies the demo advisor's password hash, so every bench advisor signs in with "demo".
  await db.query(
    `INSERT INTO advisors (advisor_id, username, display_name, password_hash, availability)
     SELECT 'bench-advisor-' || n, 'bench' || n, 'Bench advisor ' || n, password_hash, 'Offline'
     FROM advisors, generate_series(1, $1::int) AS n
     WHERE username = 'demo'
     ON CONFLICT DO NOTHING`,
    [advisors],
  );
}
const built = await buildApp(config, { db });
const url = await listen(built);
process.send({ url });

/** V8's full collection, without starting the process with --expose-gc. */
function collectGarbage() {
  setFlagsFromString("--expose-gc");
  runInNewContext("gc")();
}

/** The event loop's delay and the collector's pauses, from `{ loop: "start" }` on. */
function watchLoop() {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const pauses = [];
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  delay.enable();
  gc.observe({ entryTypes: ["gc"] });
  return () => {
    delay.disable();
    gc.disconnect();
    const ms = (ns) => ns / 1e6;
    return {
      delay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
      gc: {
        count: pauses.length,
        ms: pauses.reduce((sum, d) => sum + d, 0),
        max: Math.max(0, ...pauses),
        over10: pauses.filter((d) => d > 10).length,
      },
    };
  };
}

let loop = null;
let profiler = null;
let promises = 0;
const promiseCounter = createHook({
  init(_id, type) {
    if (type === "PROMISE") promises += 1;
  },
});
process.on("message", async (message) => {
  if (message?.memory === "settled") {
    collectGarbage();
    const { rss, heapUsed } = process.memoryUsage();
    process.send({ rss, heapUsed });
  } else if (message?.loop === "start") {
    loop = watchLoop();
    process.send({ loop: "started" });
  } else if (message?.loop === "stop" && loop) {
    process.send(loop());
    loop = null;
  } else if (message?.promises === "start") {
    promises = 0;
    promiseCounter.enable();
    process.send({ promises: 0 });
  } else if (message?.promises === "stop") {
    promiseCounter.disable();
    process.send({ promises });
  } else if (message?.profile === "start" && !profiler) {
    profiler = new Session();
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
    process.send({ profile: "started" });
  } else if (message?.profile === "stop" && profiler) {
    const { profile } = await profiler.post("Profiler.stop");
    profiler.disconnect();
    profiler = null;
    writeFileSync(message.file, JSON.stringify(profile));
    process.send({ profile: "stopped" });
  }
});

let stopping = false;
process.on("SIGTERM", () => {
  if (stopping) return;
  stopping = true;
  built
    .close()
    .then(() => db.close())
    .then(
      () => process.exit(0),
      (error) => {
        console.error("shutdown failed:", error);
        process.exit(1);
      },
    );
});
