/**
 * Issue 26, the built-in assistant of the demo flow ("Ask a question"): each question is answered
 * from the shop's FAQ, streamed word by word to the customer's websocket as chunks of one Id,
 * then committed once under that Id; questions asked while an answer streams are answered
 * after it, in order, never interleaved; a chat ended in the middle of an answer stops it.
 */
import { ContentType, type Item } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findAnswer } from "../../src/flow/faq.js";
import type { FlowFaq } from "../../src/flow/types.js";
import { call } from "../support/client.js";
import { ENGINES } from "../support/databases.js";
import { defaultFlowWith } from "../support/flows.js";
import { startServer, type TestServer } from "../support/server.js";
import { askingCustomer, startFeatureServer, type Customer } from "./helpers.js";

const chunksOf = (customer: Customer, id: string): Item[] =>
  customer.socket
    .items()
    .filter((i) => i.Id === id && i.MessageMetadata?.MessageCompleted === false);
const isCompletedAnswer = (i: Item) => i.MessageMetadata?.MessageCompleted === true;

describe.each(ENGINES)("the built-in FAQ assistant (%s, issue 26)", (engine) => {
  let server: TestServer;
  let customer: Customer | undefined;
  beforeAll(async () => {
    server = await startFeatureServer(engine);
  }, 120_000);
  afterAll(() => server.close());
  afterEach(() => customer?.close());

  it("streams the answer word by word under one Id, then commits it once", async () => {
    customer = await askingCustomer(server);
    await customer.say("How much is delivery?");
    const answer = await customer.socket.waitForItem(isCompletedAnswer, 15_000);
    expect(answer).toMatchObject({
      ParticipantRole: "SYSTEM",
      DisplayName: "Shop assistant",
      ContentType: ContentType.TEXT_MARKDOWN,
    });
    expect(answer.Content).toContain("£3.95");
    const chunks = chunksOf(customer, answer.Id);
    // One word a chunk, numbered from 1, in order, adding up to the completed text.
    expect(chunks.length).toBe(answer.Content!.split(/\s+/).length);
    expect(chunks.map((c) => c.MessageMetadata?.ChunkNumber)).toEqual(chunks.map((_, i) => i + 1));
    expect(chunks.map((c) => c.Content).join("")).toBe(answer.Content);
    expect(new Set(chunks.map((c) => c.AbsoluteTime)).size).toBe(1);

    const transcript = await call<{ Transcript: Item[] }>(
      server.url,
      "/participant/transcript",
      customer.connectionToken,
      { MaxResults: 100, ScanDirection: "FORWARD", SortOrder: "ASCENDING" },
    );
    expect(transcript.body.Transcript.filter((i) => i.Id === answer.Id)).toEqual([
      expect.objectContaining({ Content: answer.Content }),
    ]);
  });

  it(
    "answers questions asked during an answer after it, in order, never interleaved",
    {
      timeout: 30_000,
    },
    async () => {
      customer = await askingCustomer(server);
      await customer.say("Which payment methods do you accept?");
      await customer.say("Do you offer gift wrapping?");
      await customer.say("What is the meaning of life?");
      await customer.socket.waitFor(
        () => customer!.socket.items().filter(isCompletedAnswer).length === 3,
        { ms: 20_000 },
      );
      const answers = customer.socket.items().filter(isCompletedAnswer);
      expect(answers.map((a) => a.Content)).toEqual([
        expect.stringContaining("Klarna"),
        expect.stringContaining("gift wrapping for £2.50"),
        expect.stringContaining("couldn't find an answer"),
      ]);
      // Each answer streamed once: every chunk number once, in order.
      for (const a of answers) {
        const numbers = chunksOf(customer, a.Id).map((c) => c.MessageMetadata?.ChunkNumber);
        expect(numbers).toEqual(numbers.map((_, i) => i + 1));
      }
      // On the socket, each answer's chunks and completion come before the next answer's first chunk.
      const order = customer.socket.items().map((i) => i.Id);
      for (const [a, b] of [
        [answers[0]!, answers[1]!],
        [answers[1]!, answers[2]!],
      ] as const) {
        expect(order.lastIndexOf(a.Id)).toBeLessThan(order.indexOf(b.Id));
      }
    },
  );

  it("hands over to an advisor when asked, without answering that", async () => {
    customer = await askingCustomer(server);
    await customer.say("Can I speak to an advisor?");
    await customer.waitFor((i) => (i.Content ?? "").includes("Connecting you to an advisor"));
    expect(customer.socket.items().some((i) => i.MessageMetadata !== undefined)).toBe(false);
  });
});

describe("an answer cut short", () => {
  let server: TestServer;
  let faq: FlowFaq;
  let customer: Customer | undefined;
  beforeAll(async () => {
    // Slow words, so the chat surely ends in the middle of the answer.
    const dir = defaultFlowWith((flow) => {
      flow.faq!.wordPauseMs = 200;
      faq = flow.faq!;
    });
    server = await startServer("pglite", { features: true, flowsDir: dir });
  }, 120_000);
  afterAll(() => server.close());
  afterEach(() => customer?.close());

  it("stops when the chat ends in the middle: the step is done, nothing more is sent, nothing committed", async () => {
    customer = await askingCustomer(server);
    const question = "How do I return an item?";
    const answerWords = findAnswer(faq, question).split(/\s+/).length;
    await customer.say(question);
    const first = await customer.socket.waitForItem(
      (i) => i.MessageMetadata?.MessageCompleted === false,
      15_000,
    );
    await server.built.deps.centre.endContact(customer.contactId);
    await customer.waitFor((i) => i.ContentType === ContentType.CHAT_ENDED);
    // The runner is done with the step (not stuck on it) and sends nothing more.
    const db = server.built.deps.db;
    await expect
      .poll(
        async () =>
          (
            await db.query<{ pending: string }>(
              "SELECT pending_effects::text AS pending FROM flow_positions WHERE contact_id = $1",
              [customer!.contactId],
            )
          )[0]?.pending,
        { timeout: 15_000 },
      )
      .toBe("[]");
    const sent = chunksOf(customer, first.Id).length;
    expect(sent).toBeLessThan(answerWords);
    expect(customer.socket.items().some(isCompletedAnswer)).toBe(false);
    const rows = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM items WHERE contact_id = $1 AND item_id = $2",
      [customer.contactId, first.Id],
    );
    expect(rows[0]!.n).toBe(0);
  });
});
