/**
 * Issue 23: nothing lost through a rolling deploy. Two processes on PostgreSQL + Redis behind a
 * round-robin TCP proxy; every chat's customer and advisor each write a numbered message every
 * second on our chat client while process 0 gets SIGTERM and is started again, then, 5 s later,
 * process 1 the same. On both sides of every chat: 0 lost, 0 twice, 0 out of order, the stored
 * transcript exactly what was acknowledged; every session whose websocket closed was connected
 * again within RECONNECT_MS; each process was gone within DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS
 * and a second.
 *
 * `npm test` runs ROLLING_CHATS (default 10) chats; the 100:
 *   ROLLING_CHATS=100 npx vitest run packages/server/test/faults/rolling-restart.test.ts
 * ROLLING_LOG_DIR=<dir> writes each session's client log there.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { chatWithAdvisor, type AdvisorChat } from "../client/support/advisor-chat.js";
import type { Recorder } from "../client/support/sessions.js";
import { CHATS_PER_ADVISOR, startRollingRig, type RollingRig } from "./rig-rolling.js";
import { Talker, deliveryReport, numbers, storedTranscript } from "./traffic.js";

const CHATS = Number(process.env.ROLLING_CHATS ?? 10);
const LOG_DIR = process.env.ROLLING_LOG_DIR;
const EVERY_MS = 1_000;
/** The bound: connected again within 10 s of a process accepting (one always does). */
const RECONNECT_MS = 10_000;
/** The processes' settings: the defaults unless told (ROLLING_DRAIN_MS, ROLLING_SHUTDOWN_MS). */
const DRAIN_DELAY_MS = Number(process.env.ROLLING_DRAIN_MS ?? 0);
const SHUTDOWN_TIMEOUT_MS = Number(process.env.ROLLING_SHUTDOWN_MS ?? 10_000);
/** How long both sides go on writing after the second restart (the run: 40 s). */
const AFTER_MS = Number(process.env.ROLLING_AFTER_MS ?? 5_000);
/** Generous bounds for a loaded 2-core machine: the test waits for its state, never this long. */
const SETTLE_MS = 180_000;
const SCENARIO_MS = 900_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let rig: RollingRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
}, 60_000);

/** When a session's websocket was lost and gained, in order. */
class Timeline {
  readonly changes: { lost: boolean; at: number }[] = [];
  constructor(recorder: Recorder) {
    recorder.session.on("connectionLost", () => this.changes.push({ lost: true, at: Date.now() }));
    recorder.session.on("connectionEstablished", () =>
      this.changes.push({ lost: false, at: Date.now() }),
    );
  }
  /** How long each loss lasted until the next gain (Infinity: never gained again). */
  outages(): number[] {
    return this.changes.flatMap((c, i) => {
      if (!c.lost) return [];
      const gained = this.changes.slice(i + 1).find((n) => !n.lost);
      return [gained ? gained.at - c.at : Infinity];
    });
  }
}

interface Side {
  name: string;
  talker: Talker;
  receiver: Recorder;
  timeline: Timeline;
  log: string[];
}

async function setUp(r: RollingRig): Promise<{ chats: AdvisorChat[]; sides: Side[] }> {
  const logs = new Map<string, string[]>();
  const logTo = (name: string) => {
    const lines: string[] = [];
    logs.set(name, lines);
    return (line: string) => lines.push(line);
  };
  // Each advisor takes its chats one after another; the advisors work side by side.
  const perAdvisor = await Promise.all(
    r.advisors.map(async (advisor, a) => {
      const mine: AdvisorChat[] = [];
      for (let i = 0; i < CHATS_PER_ADVISOR && a * CHATS_PER_ADVISOR + i < CHATS; i++) {
        const n = a * CHATS_PER_ADVISOR + i;
        mine.push(
          await chatWithAdvisor(r.url, {
            advisor,
            customer: { log: logTo(`chat${n}-customer`) },
            agent: { log: logTo(`chat${n}-advisor`) },
          }),
        );
      }
      return mine;
    }),
  );
  const chats = perAdvisor.flat();
  const sides = chats.flatMap((chat, n) => [
    {
      name: `chat${n}-customer`,
      talker: new Talker(chat.customer, "c"),
      receiver: chat.agent,
      timeline: new Timeline(chat.customer),
      log: logs.get(`chat${n}-customer`)!,
    },
    {
      name: `chat${n}-advisor`,
      talker: new Talker(chat.agent, "a"),
      receiver: chat.customer,
      timeline: new Timeline(chat.agent),
      log: logs.get(`chat${n}-advisor`)!,
    },
  ]);
  return { chats, sides };
}

it(
  `a rolling restart of two processes loses nothing: ${CHATS} chats, both sides sending (issue 23)`,
  async () => {
    rig = await startRollingRig(CHATS, {
      DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    const { chats, sides } = await setUp(rig);
    // Spread the writers over the second, as people are.
    sides.forEach((s, i) =>
      setTimeout(() => s.talker.start(EVERY_MS), (i * EVERY_MS) / sides.length),
    );
    await sleep(3_000);
    const exits = [await rig.restart(0)];
    await sleep(5_000);
    exits.push(await rig.restart(1));
    await sleep(AFTER_MS);
    await Promise.all(sides.map((s) => s.talker.stop(SETTLE_MS)));

    // Every acknowledged message reaches the other side (waiting for it, within SETTLE_MS).
    const deadline = Date.now() + SETTLE_MS;
    for (const side of sides) {
      await side.receiver
        .waitUntil(
          () => {
            const ids = new Set(side.receiver.items().map((i) => i.Id));
            return side.talker.acked.every((a) => ids.has(a.id));
          },
          `${side.name}: not every acknowledged message arrived`,
          Math.max(1, deadline - Date.now()),
        )
        .catch(() => {});
    }
    if (LOG_DIR) {
      await mkdir(LOG_DIR, { recursive: true });
      for (const side of sides)
        await writeFile(join(LOG_DIR, `${side.name}.log`), side.log.join("\n"));
      await writeFile(join(LOG_DIR, "servers.log"), rig.output());
    }

    const reports = sides.map((s) => ({
      side: s.name,
      ...deliveryReport(s.talker, s.receiver),
      slowestReconnectMs: Math.max(0, ...s.timeline.outages()),
      status: s.talker.recorder.session.getConnectionStatus(),
    }));
    const bad = reports.filter(
      (r) =>
        r.failed + r.lost + r.twice + r.outOfOrder > 0 ||
        r.acked !== r.written ||
        r.slowestReconnectMs > RECONNECT_MS,
    );
    const summary = {
      chats: CHATS,
      written: reports.reduce((n, r) => n + r.written, 0),
      lost: reports.reduce((n, r) => n + r.lost, 0),
      reconnects: sides.reduce((n, s) => n + s.timeline.outages().length, 0),
      slowestReconnectMs: Math.max(...reports.map((r) => r.slowestReconnectMs)),
      exitMs: exits.map((e) => e.exitMs),
    };
    console.log("rolling restart:", JSON.stringify(summary));
    expect(bad).toEqual([]);
    expect(summary.reconnects).toBeGreaterThan(0);
    for (const { exitMs } of exits) {
      expect(exitMs).toBeLessThanOrEqual(DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS + 1_000);
    }
    for (const chat of chats) {
      const stored = await storedTranscript(chat.customer);
      const side = (prefix: string) =>
        sides.find((s) => s.talker.recorder === (prefix === "c" ? chat.customer : chat.agent))!;
      const all = (t: Talker) => Array.from({ length: t.count }, (_, i) => i + 1);
      expect(numbers("c", stored)).toEqual(all(side("c").talker));
      expect(numbers("a", stored)).toEqual(all(side("a").talker));
    }
  },
  SCENARIO_MS,
);
