/**
 * Issue 9's fault suite, shared by its files (network.test.ts, kills.test.ts,
 * traffic-shapes.test.ts): the contact centre as a real process behind a TCP proxy, our chat
 * client on both sides writing a numbered message every 200 ms. For each fault: on both sides
 * 0 messages lost, 0 delivered twice, 0 out of order, 0 sessions dead, and the stored
 * transcript holds exactly what was acknowledged, once each, in order. The scenarios are spread
 * over several files so that they run beside each other.
 */
import { afterEach, expect } from "vitest";
import { chatWithAdvisor, type AdvisorChat } from "../client/support/advisor-chat.js";
import { startRig, type FaultRig } from "./rig.js";
import { Talker, deliveryReport, numbers, storedTranscript } from "./traffic.js";

/** Generous bounds for a loaded 2-core machine: a test waits for its state, never this long. */
export const SETTLE_MS = 120_000;
export const SCENARIO_MS = 400_000;

export const pglite = (): Promise<FaultRig> => startRig("pglite");
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let rig: { url: string; close(): Promise<void> } | undefined;
/** Each file's rig is closed after each of its tests, passed or not. */
export function closeRigAfterEach(): void {
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  }, 60_000);
}

/** Wait until `receiver` has every message `sender` got acknowledged. */
async function delivered(sender: Talker, receiver: AdvisorChat["customer"]): Promise<void> {
  await receiver.waitUntil(
    () => {
      const ids = new Set(receiver.items().map((i) => i.Id));
      return sender.acked.every((a) => ids.has(a.id));
    },
    `${sender.prefix}: not every acknowledged message arrived`,
    SETTLE_MS,
  );
}

/** Drive traffic through `fault` and check the promise on both sides and in the store. */
export async function survives<R extends { url: string; close(): Promise<void> }>(
  start: () => Promise<R>,
  fault: (rig: R) => Promise<void>,
  traffic: (customer: Talker, advisor: Talker) => void = (c, a) => {
    c.start();
    a.start();
  },
  cutsConnections = true,
): Promise<void> {
  const started = await start();
  rig = started;
  const chat = await chatWithAdvisor(started.url);
  const customer = new Talker(chat.customer, "c");
  const advisor = new Talker(chat.agent, "a");
  traffic(customer, advisor);
  await sleep(2_000);
  await fault(started);
  await sleep(2_000);
  await customer.stop(SETTLE_MS);
  await advisor.stop(SETTLE_MS);
  await delivered(customer, chat.agent);
  await delivered(advisor, chat.customer);

  const clean = (t: Talker) => ({
    written: t.count,
    acked: t.count,
    failed: 0,
    lost: 0,
    twice: 0,
    outOfOrder: 0,
  });
  expect(deliveryReport(customer, chat.agent)).toEqual(clean(customer));
  expect(deliveryReport(advisor, chat.customer)).toEqual(clean(advisor));
  for (const side of [chat.customer, chat.agent]) {
    if (cutsConnections) expect(side.count("connectionLost")).toBeGreaterThan(0);
    expect(side.count("ended")).toBe(0);
    expect(side.session.getConnectionStatus()).not.toBe("Ended");
  }
  const stored = await storedTranscript(chat.customer);
  const all = (t: Talker) => Array.from({ length: t.count }, (_, i) => i + 1);
  expect(numbers("c", stored)).toEqual(all(customer));
  expect(numbers("a", stored)).toEqual(all(advisor));
}
