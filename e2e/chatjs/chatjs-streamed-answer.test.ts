/**
 * Issue 26: the real amazon-connect-chatjs 5 in Chromium receives the demo assistant's streamed
 * answer stitched: through onMessage, the text so far under one Id at each word, each a longer
 * prefix of the answer, then the completed message with the whole text, stored once.
 */
import { ContentType, type Item } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import { useChatjsFile } from "./support/chatjs-file.js";
import { findAnswer } from "../../packages/server/src/flow/faq.js";
import { loadFlows } from "../../packages/server/src/flow/load.js";
import { chatjsItems, waitForChatjsItem, watchPage } from "./support/browser.js";
import { chatjsSend, startChatjsChat, waitForTranscript } from "./support/page-api.js";

const QUESTION = "Which payment methods do you accept?";

const file = useChatjsFile();

describe("amazon-connect-chatjs 5 in Chromium and the demo flow's assistant (issue 26)", () => {
  it("delivers the streamed answer stitched, word by word under one Id, then complete", async () => {
    const faq = (await loadFlows()).get("default-flow")!.faq!;
    const answer = findAnswer(faq, QUESTION);
    const page = await file.browser.newPage();
    const log = watchPage(page);
    await page.goto(`${file.centre.pages.origin}/`);
    expect((await startChatjsChat(page, file.centre.server.url)).connectSuccess).toBe(true);
    await waitForTranscript(page, (t) =>
      t.some((i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE),
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
    expect(completed).toMatchObject({
      Content: answer,
      ParticipantRole: "SYSTEM",
      DisplayName: "Shop assistant",
      ContentType: ContentType.TEXT_MARKDOWN,
    });
    const ofAnswer = (await chatjsItems(page)).filter((i: Item) => i.Id === completed.Id);
    const growing = ofAnswer.filter((i) => i.MessageMetadata?.MessageCompleted === false);
    // Stitched: one delivery a word, each the text so far (a longer prefix of the answer).
    expect(growing.length).toBe(answer.split(/\s+/).length);
    for (const [n, item] of growing.entries()) {
      expect(answer.startsWith(item.Content ?? "\u0000")).toBe(true);
      if (n > 0) expect(item.Content!.length).toBeGreaterThan(growing[n - 1]!.Content!.length);
    }
    expect(growing.at(-1)!.Content!.trimEnd()).toBe(answer);
    expect(ofAnswer.at(-1)).toBe(ofAnswer.find((i) => i.MessageMetadata?.MessageCompleted));

    const transcript = await waitForTranscript(page, (t) => t.some((i) => i.Id === completed.Id));
    expect(transcript.data.Transcript.filter((i) => i.Id === completed.Id)).toHaveLength(1);
    expect(log.errors).toEqual([]);
  });
});
