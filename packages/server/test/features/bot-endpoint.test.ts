/**
 * Issue 26, a company's own bot in the flow: the demo flow's "Ask a question" state answered by
 * an HTTP bot (a real server on loopback) instead of the FAQ. JSON messages are committed as
 * they are; a Server-Sent Events answer is streamed to the customer as chunks of one Id and
 * committed once; the bot's hand-over, and a slow, failing, malformed or stalling bot, each end
 * in the flow's failure words (for a failure) and the hand-over state, never a stuck chat.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ContentType, Limits, type Item } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BotRequest } from "../../src/flow/bot-client.js";
import { createTestDatabase, ENGINES } from "../support/databases.js";
import { defaultFlowWith } from "../support/flows.js";
import { startServer, type TestServer } from "../support/server.js";
import { askingCustomer, type Customer } from "./helpers.js";

const FAILURE = "Our bot is having a rest.";
const QUICK_REPLY = JSON.stringify({
  templateType: "QuickReply",
  version: "1.0",
  data: { content: { title: "Was this helpful?", elements: [{ title: "Yes" }, { title: "No" }] } },
});
const LONG = "word ".repeat(300).trim(); // 1,499 characters: two messages

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Whether the "slow" question gets an answer at all. */
let botAwake = false;

/** The test's bot: what it answers depends on the question. */
function botAnswers(question: string, res: ServerResponse): void {
  const sse = async (events: string[], after?: () => void) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const e of events) {
      res.write(e);
      await sleep(20);
    }
    if (after) after();
    else res.end();
  };
  switch (question) {
    case "json":
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          messages: [
            { contentType: ContentType.TEXT_MARKDOWN, content: "Here is **the answer**." },
            { contentType: ContentType.INTERACTIVE_MESSAGE, content: QUICK_REPLY },
          ],
        }),
      );
      return;
    case "stream":
      void sse(["data: Our shop \n\n", "data: opens \n\n", "data: at nine.\n\n"]);
      return;
    case "hand over":
      void sse(["data: Let me find you a person.\n\n", "event: handover\ndata:\n\n"]);
      return;
    case "long":
      void sse(LONG.match(/.{1,100}/gs)!.map((piece) => `data: ${piece}\n\n`));
      return;
    case "emoji":
      // The 1,024th character is the first half of an emoji.
      void sse([`data: ${"a".repeat(1023)}😀b\n\n`]);
      return;
    case "flood":
      void sse(Array.from({ length: 50 }, () => `data: ${"f".repeat(100)}\n\n`));
      return;
    case "stall":
      // One piece, then silence past the bot's timeout.
      void sse(["data: Let me think\n\n"], () => undefined);
      return;
    case "slow":
      if (!botAwake) return; // never answers
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ messages: [{ contentType: "text/plain", content: "Awake now." }] }));
      return;
    case "fail":
      res.writeHead(500).end();
      return;
    default:
      res.writeHead(200, { "content-type": "application/json" }).end("{oops");
  }
}

const isCompleted = (i: Item) => i.MessageMetadata?.MessageCompleted === true;
/** The assistant's messages on the socket, complete (not the chunks of a streamed one). */
const fromAssistant = (c: Customer) =>
  c.socket
    .items()
    .filter(
      (i) =>
        i.Type === "MESSAGE" &&
        i.DisplayName === "Shop assistant" &&
        i.MessageMetadata?.MessageCompleted !== false,
    );
const connecting = (i: Item) => (i.Content ?? "").startsWith("Connecting you to an advisor");

/** The test's bot on loopback, and a flow whose "Ask a question" it answers. */
async function startBot(timeoutMs: number) {
  const requests: BotRequest[] = [];
  const bot = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const asked = JSON.parse(body) as BotRequest;
      requests.push(asked);
      botAnswers(asked.message.content, res);
    });
  });
  await new Promise<void>((resolve) => bot.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(bot.address() as AddressInfo).port}/answer`;
  const flowsDir = defaultFlowWith((flow) => {
    flow.states.askQuestion!.answer = {
      from: "bot",
      bot: { url, timeoutMs, maxAnswerMs: Math.max(10_000, timeoutMs) },
      branches: flow.states.askQuestion!.answer!.branches,
      handOver: "toAdvisor",
      failure: FAILURE,
    };
  });
  const close = async () => {
    bot.closeAllConnections();
    await new Promise((resolve) => bot.close(resolve));
  };
  return { requests, flowsDir, close };
}

describe.each(ENGINES)("a company's bot answers in the flow (%s, issue 26)", (engine) => {
  let requests: BotRequest[];
  let bot: Awaited<ReturnType<typeof startBot>>;
  let server: TestServer;
  let customer: Customer | undefined;

  beforeAll(async () => {
    bot = await startBot(2_000);
    requests = bot.requests;
    server = await startServer(engine, { features: true, flowsDir: bot.flowsDir });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await bot?.close();
  });
  afterEach(() => customer?.close());

  it("commits the bot's JSON messages as they are, and keeps answering", async () => {
    customer = await askingCustomer(server);
    await customer.say("json");
    const template = await customer.waitFor(
      (i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE && i.Content === QUICK_REPLY,
    );
    expect(
      fromAssistant(customer)
        .map((i) => i.Content)
        .slice(-2),
    ).toEqual(["Here is **the answer**.", QUICK_REPLY]);
    expect(template.ParticipantRole).toBe("SYSTEM");
    const asked = requests.find((r) => r.contactId === customer!.contactId)!;
    expect(asked).toMatchObject({
      message: { contentType: ContentType.TEXT_PLAIN, content: "json" },
      attributes: expect.any(Object),
      requestId: expect.any(String),
    });
    // Still in the bot's state: the next question goes to the bot too.
    await customer.say("stream");
    await customer.socket.waitForItem(isCompleted, 15_000);
    expect(customer.items().some(connecting)).toBe(false);
  });

  it("streams a Server-Sent Events answer as chunks of one Id, then commits it once", async () => {
    customer = await askingCustomer(server);
    await customer.say("stream");
    const done = await customer.socket.waitForItem(isCompleted, 15_000);
    expect(done.Content).toBe("Our shop opens at nine.");
    const chunks = customer.socket
      .items()
      .filter((i) => i.Id === done.Id && i.MessageMetadata?.MessageCompleted === false);
    expect(chunks.map((c) => c.Content)).toEqual(["Our shop ", "opens ", "at nine."]);
    expect(chunks.map((c) => c.MessageMetadata?.ChunkNumber)).toEqual([1, 2, 3]);
  });

  it("goes on in a second message when an answer passes the 1024-character limit", async () => {
    customer = await askingCustomer(server);
    await customer.say("long");
    await customer.socket.waitFor(() => customer!.socket.items().filter(isCompleted).length === 2, {
      ms: 15_000,
    });
    const parts = customer.socket.items().filter(isCompleted);
    expect(parts[0]!.Content).toHaveLength(Limits.TEXT_CONTENT_MAX);
    expect(parts.map((p) => p.Content).join("")).toBe(LONG);
  });

  it("never cuts an emoji in two at the limit", async () => {
    customer = await askingCustomer(server);
    await customer.say("emoji");
    await customer.socket.waitFor(() => customer!.socket.items().filter(isCompleted).length === 2, {
      ms: 15_000,
    });
    const parts = customer.socket.items().filter(isCompleted);
    expect(parts.map((p) => p.Content)).toEqual(["a".repeat(1023), "😀b"]);
  });

  it("a bot that says too much: what fits in four messages, then the failure words and the hand-over", async () => {
    customer = await askingCustomer(server);
    await customer.say("flood");
    await customer.socket.waitForItem(connecting, 15_000);
    const parts = customer.socket.items().filter(isCompleted);
    // 40 pieces of 100 fit in the 4,096 characters: the 41st is refused.
    expect(parts.map((p) => p.Content!.length)).toEqual([1024, 1024, 1024, 928]);
    expect(fromAssistant(customer).map((i) => i.Content)).toContain(FAILURE);
  });

  it("hands over to an advisor when the bot says so, after its answer", async () => {
    customer = await askingCustomer(server);
    await customer.say("hand over");
    await customer.socket.waitForItem(connecting, 15_000);
    const said = fromAssistant(customer).map((i) => i.Content);
    expect(said).toContain("Let me find you a person.");
    expect(said.indexOf("Let me find you a person.")).toBeLessThan(
      said.findIndex((c) => c?.startsWith("Connecting you")),
    );
    expect(said).not.toContain(FAILURE);
  });

  it.each([
    ["slow (no answer within its timeout)", "slow"],
    ["failing (HTTP 500)", "fail"],
    ["malformed (not JSON)", "garbage"],
  ])("a %s bot: the failure words, then the hand-over", async (_what, question) => {
    customer = await askingCustomer(server);
    await customer.say(question);
    await customer.socket.waitForItem(connecting, 15_000);
    const said = fromAssistant(customer).map((i) => i.Content);
    expect(said.filter((c) => c === FAILURE)).toHaveLength(1);
    expect(said.indexOf(FAILURE)).toBeLessThan(said.findIndex((c) => c?.startsWith("Connecting")));
  });

  it("a bot that stalls in the middle: what it said is completed, then the failure words and the hand-over", async () => {
    customer = await askingCustomer(server);
    await customer.say("stall");
    await customer.socket.waitForItem(connecting, 15_000);
    const completed = customer.socket.items().filter(isCompleted);
    expect(completed.map((i) => i.Content)).toEqual(["Let me think"]);
    const said = fromAssistant(customer).map((i) => i.Content);
    expect(said).toContain(FAILURE);
    expect(said.indexOf(FAILURE)).toBeGreaterThan(said.indexOf("Let me think"));
  });
});

describe("a server stopped in the middle of a bot's answer (issue 26)", () => {
  it(
    "stops the answer without a word, and the next server performs it again",
    {
      timeout: 90_000,
    },
    async () => {
      const bot = await startBot(60_000);
      const database = await createTestDatabase("postgres");
      let server = await startServer("postgres", {
        features: true,
        flowsDir: bot.flowsDir,
        database,
      });
      try {
        const customer = await askingCustomer(server);
        botAwake = false;
        await customer.say("slow");
        await expect.poll(() => bot.requests.length, { timeout: 15_000 }).toBe(1);
        // Stopping does not wait for the bot's 60 s: the answer stops, the step stays pending.
        await server.close();
        customer.close();
        botAwake = true;
        server = await startServer("postgres", {
          features: true,
          flowsDir: bot.flowsDir,
          database,
        });
        const stored = async () =>
          (
            await server.built.deps.db.query<{ item: Item }>(
              "SELECT item FROM items WHERE contact_id = $1 ORDER BY seq",
              [customer.contactId],
            )
          ).map((r) => (typeof r.item === "string" ? (JSON.parse(r.item) as Item) : r.item));
        await expect
          .poll(async () => (await stored()).map((i) => i.Content), { timeout: 15_000 })
          .toContain("Awake now.");
        const said = (await stored()).map((i) => i.Content);
        expect(said).not.toContain(FAILURE);
        expect(said.filter((c) => c === "Awake now.")).toHaveLength(1);
        // Asked twice, with the same requestId: a bot can tell a repeat.
        expect(bot.requests).toHaveLength(2);
        expect(bot.requests[1]!.requestId).toBe(bot.requests[0]!.requestId);
      } finally {
        await server.close();
        await bot.close();
        await database.drop();
      }
    },
  );
});
