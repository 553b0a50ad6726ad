/**
 * Issue 26 in issue 9's fault suite: streamed answers in flight when the fault strikes. A visitor
 * in the demo flow's "Ask a question" writes a numbered question every second through our chat
 * client; the built-in assistant streams an answer to each. Through websockets reset for the
 * outage and a `kill -9` of the server (restarted 3 s later), every acknowledged question is
 * stored once, in order, and answered exactly once: one completed answer per question, after
 * it, stored once, and seen by the client once, complete (an answer cut by the kill is streamed
 * again under the same Id and committed once).
 */
import { ContentType, type Item } from "@chat-widget/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { startChat } from "../client/support/http.js";
import { customerSession, type Recorder } from "../client/support/sessions.js";
import { loadFlows } from "../../src/flow/load.js";
import { startRig, type FaultRig } from "./rig.js";
import { Talker, numbers, storedTranscript } from "./traffic.js";

/** Shorter than the delivery outages: what matters here is the answer cut in the middle. */
const FAULT_MS = 10_000;
const QUESTION_EVERY_MS = 1_000;
/** Generous bounds for a loaded 2-core machine: a test waits for its state, never this long. */
const SETTLE_MS = 120_000;
const SCENARIO_MS = 300_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isAnswer = (i: Item): boolean =>
  i.Type === "MESSAGE" &&
  i.ParticipantRole === "SYSTEM" &&
  i.MessageMetadata?.MessageCompleted === true;

let rig: FaultRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
}, 60_000);

/** A visitor of the demo flow who chose "Ask a question" and was asked for it. */
async function asking(base: string): Promise<Recorder> {
  const chat = await startChat(base, "Quinn");
  const customer = await customerSession(base, chat);
  expect((await customer.session.connect()).connectSuccess).toBe(true);
  await customer.waitForItem((i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE);
  await customer.session.sendMessage({ message: "Ask a question", contentType: "text/plain" });
  await customer.waitForItem(
    (i) => i.ContentType === ContentType.TEXT_PLAIN && i.Content === "input",
  );
  return customer;
}

async function answeredThrough(fault: (rig: FaultRig) => Promise<void>): Promise<void> {
  const noAnswer = (await loadFlows()).get("default-flow")!.faq!.noAnswer;
  rig = await startRig("pglite");
  const customer = await asking(rig.url);
  const questions = new Talker(customer, "q");
  questions.start(QUESTION_EVERY_MS);
  await sleep(2_000);
  // Strike while an answer is growing: a piece of it seen, its completion not yet.
  const growing = (): boolean => {
    const items = customer.items();
    const done = new Set(items.filter(isAnswer).map((i) => i.Id));
    return items.some((i) => i.MessageMetadata?.MessageCompleted === false && !done.has(i.Id));
  };
  await customer.waitUntil(growing, "no answer was growing", SETTLE_MS);
  await fault(rig);
  await sleep(2_000);
  await questions.stop(SETTLE_MS);
  expect(questions.failed).toEqual([]);
  const asked = questions.count;

  // The client first: each answer once, complete (a piece of one never stands in for it). (Read
  // the store after: a getTranscript through the session marks what it reads as known, and
  // onMessage never hands those items over.)
  await customer.waitUntil(
    () =>
      new Set(
        customer
          .items()
          .filter(isAnswer)
          .map((i) => i.Id),
      ).size >= asked,
    "the client did not get every answer complete",
    SETTLE_MS,
  );

  // In the store: every question once, in order, and exactly one answer to each, after it.
  const stored = await storedTranscript(customer);
  expect(numbers("q", stored)).toEqual(Array.from({ length: asked }, (_, i) => i + 1));
  const answers = stored.filter(isAnswer);
  expect(answers).toHaveLength(asked);
  expect(answers.every((a) => a.Content === noAnswer)).toBe(true);
  let questionsSoFar = 0;
  let answersSoFar = 0;
  for (const item of stored) {
    if (numbers("q", [item]).length === 1) questionsSoFar += 1;
    if (isAnswer(item)) expect(++answersSoFar).toBeLessThanOrEqual(questionsSoFar);
  }
  const ids = answers.map((a) => a.Id);
  const seen = customer.items().filter(isAnswer);
  expect(seen.map((i) => i.Id).sort()).toEqual([...ids].sort());
  expect(seen.every((i) => i.Content === noAnswer)).toBe(true);
  // Nothing left growing: every answer the client saw a piece of was completed.
  const pieces = customer.items().filter((i) => i.MessageMetadata?.MessageCompleted === false);
  expect(pieces.length).toBeGreaterThan(0);
  expect(pieces.filter((i) => !ids.includes(i.Id))).toEqual([]);
  expect(customer.count("ended")).toBe(0);
}

describe("streamed answers in flight under real faults (issues 9 and 26)", () => {
  it(
    "websockets reset for the outage in the middle of answers",
    async () => {
      await answeredThrough(async (r) => {
        await r.proxy.set("reset", { only: "websocket" });
        await sleep(FAULT_MS);
        await r.proxy.set("pass");
      });
    },
    SCENARIO_MS,
  );

  it(
    "kill -9 of the server in the middle of an answer, restarted 3 s later",
    async () => {
      await answeredThrough(async (r) => {
        await r.kill();
        await sleep(3_000);
        await r.restart();
      });
    },
    SCENARIO_MS,
  );
});
