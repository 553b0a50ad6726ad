/**
 * Issue 26, chatjs 5 parity: onTranscriptUpdated in Chromium, the real amazon-connect-chatjs
 * 5.0.0 and our client's browser bundle side by side, through the demo assistant's streamed
 * answer. Both hand out the answer growing under one Id and then complete, once; both end
 * with the same conversation; ours also keeps the visitor's messages as SENT.
 */
import { ContentType, type Item } from "@chat-widget/protocol";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useChatjsFile } from "./support/chatjs-file.js";
import { findAnswer } from "../../packages/server/src/flow/faq.js";
import { loadFlows } from "../../packages/server/src/flow/load.js";
import { chatjsEvents, waitForChatjsItem, watchPage } from "./support/browser.js";
import { chatjsSend, startChatjsChat } from "./support/page-api.js";

const QUESTION = "Which payment methods do you accept?";

interface Update {
  transcript: (Item & { MessageMetadata?: { Status?: string } })[];
  previousTranscriptNextToken?: string | null;
}

const file = useChatjsFile();

async function updates(page: Page): Promise<Update[]> {
  return (await chatjsEvents(page))
    .filter((e) => e.kind === "transcriptUpdated")
    .map((e) => e.data as unknown as Update);
}

/** Waits until the latest transcript update satisfies `done`; returns it. */
async function waitForUpdate(page: Page, done: (u: Update) => boolean): Promise<Update> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const last = (await updates(page)).at(-1);
    if (last && done(last)) return last;
    if (Date.now() > deadline) throw new Error(`no such transcript: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One chat through the page's client: the menu, "Ask a question", the streamed answer. */
async function askTheAssistant(path: string) {
  const page = await file.browser.newPage();
  const log = watchPage(page);
  await page.goto(`${file.centre.pages.origin}${path}`);
  expect(
    (await startChatjsChat(page, file.centre.server.url, "Customer", true)).connectSuccess,
  ).toBe(true);
  await waitForUpdate(page, (u) =>
    u.transcript.some((i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE),
  );
  await chatjsSend(page, "Ask a question");
  await waitForChatjsItem(page, (i) => i.Content === "input");
  await chatjsSend(page, QUESTION);
  const completed = await waitForChatjsItem(
    page,
    (i) => i.MessageMetadata?.MessageCompleted === true,
    "message",
    30_000,
  );
  const last = await waitForUpdate(page, (u) =>
    u.transcript.some((i) => i.Id === completed.Id && i.MessageMetadata?.MessageCompleted),
  );
  // The answer as each update handed it out, in order.
  const grown = (await updates(page))
    .map((u) => u.transcript.find((i) => i.Id === completed.Id)?.Content)
    .filter((text): text is string => text !== undefined);
  await page.close();
  return { last, completed, grown, errors: log.errors };
}

const conversation = (u: Update) =>
  u.transcript
    .filter((i) => i.Type === "MESSAGE")
    .map((i) => `${i.ParticipantRole}: ${i.ContentType}: ${i.Content}`);

describe("onTranscriptUpdated: amazon-connect-chatjs 5.0.0 and our client in Chromium (issue 26)", () => {
  it("both hand out the streamed answer growing in place, then complete once, and the same conversation", async () => {
    const faq = (await loadFlows()).get("default-flow")!.faq!;
    const answer = findAnswer(faq, QUESTION);
    const theirs = await askTheAssistant("/");
    const ours = await askTheAssistant("/ours");

    for (const run of [theirs, ours]) {
      expect(run.errors).toEqual([]);
      const copies = run.last.transcript.filter((i) => i.Id === run.completed.Id);
      expect(copies).toHaveLength(1);
      expect(copies[0]!.Content).toBe(answer);
      // Each update shows a prefix of the answer at least as long as the one before.
      for (const [n, text] of run.grown.entries()) {
        expect(answer.startsWith(text.trimEnd())).toBe(true);
        if (n > 0) expect(text.length).toBeGreaterThanOrEqual(run.grown[n - 1]!.length);
      }
      expect(new Set(run.grown).size).toBeGreaterThan(2);
    }
    expect(conversation(ours.last)).toEqual(conversation(theirs.last));
    expect(conversation(ours.last)).toEqual(
      expect.arrayContaining([
        `CUSTOMER: text/plain: ${QUESTION}`,
        `SYSTEM: text/markdown: ${answer}`,
      ]),
    );
    const mine = ours.last.transcript.filter(
      (i) => i.ParticipantRole === "CUSTOMER" && i.Type === "MESSAGE",
    );
    expect(mine).toHaveLength(2);
    expect(mine.map((i) => i.MessageMetadata?.Status)).toEqual(mine.map(() => "SENT"));
    // No item twice, in either.
    for (const run of [theirs, ours]) {
      const ids = run.last.transcript.map((i) => i.Id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  }, 120_000);
});
