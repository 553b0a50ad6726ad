import {
  AgentApiPath,
  ContentType,
  DemoIds,
  GatewayPath,
  type Item,
  type StartChatResponse,
} from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connectParticipant } from "../support/client.js";
import { http, signIn, startChatBody, startTwoProcesses, type TwoProcesses } from "./helpers.js";

/** Two server processes on one PostgreSQL store and one Redis fan-out. */
describe("two processes share the flow state and the agent queue", () => {
  let processes: TwoProcesses;
  let urls: [string, string];

  beforeAll(async () => {
    processes = await startTwoProcesses();
    urls = processes.urls;
  }, 120_000);
  afterAll(() => processes?.close());

  async function transcript(base: string, token: string): Promise<Item[]> {
    const r = await call<{ Transcript: Item[] }>(base, "/participant/transcript", token, {
      MaxResults: 100,
      ScanDirection: "FORWARD",
      SortOrder: "ASCENDING",
    });
    return r.body.Transcript;
  }

  async function until(
    base: string,
    token: string,
    match: (items: Item[]) => boolean,
  ): Promise<Item[]> {
    for (let i = 0; i < 100; i++) {
      const items = await transcript(base, token);
      if (match(items)) return items;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`never matched: ${JSON.stringify(await transcript(base, token))}`);
  }

  it("a chat started on one process continues its flow on the other, and the other's advisor sees it queued live", async () => {
    const [a, b] = urls;
    const started = await http<StartChatResponse>(a + GatewayPath.StartChat, {
      headers: { origin: a },
      body: startChatBody(),
    });
    const { ContactId, ParticipantToken } = started.body.data.startChatResult;
    await http(a + GatewayPath.DiscussedOrderNumber, {
      headers: { origin: a, "x-amz-bearer": ParticipantToken },
      body: {
        InstanceId: DemoIds.INSTANCE_ID,
        InitialContactId: ContactId,
        Attributes: { orderNumber: "A-10042" },
      },
    });
    const { connectionToken } = await connectParticipant(b, ParticipantToken);
    const say = (text: string) =>
      call(b, "/participant/message", connectionToken, {
        ContentType: ContentType.TEXT_PLAIN,
        Content: text,
      });

    const items = await until(b, connectionToken, (all) =>
      all.some((i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE),
    );
    const trigger = items.find(
      (i) => i.DisplayName === "BOT" && i.ContentType === ContentType.TEXT_PLAIN,
    )!;
    await say(trigger.Content!); // the widget's echo, sent through process B
    await say("Where is my order?");
    await until(b, connectionToken, (all) =>
      all.some((i) => (i.Content ?? "").includes("**A-10042**")),
    );

    // An advisor signed in on B, streaming events from A, hears of the contact B's flow queues.
    const advisor = await signIn({ url: b });
    const controller = new AbortController();
    const events = await fetch(`${a}${AgentApiPath.Events}`, {
      headers: { authorization: `Bearer ${advisor.token}` },
      signal: controller.signal,
    });
    const reader = events.body!.getReader();
    let text = "";
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        text += new TextDecoder().decode(value);
      }
    };
    await readUntil("event: chats");
    const before = text.length;
    await say("Talk to an advisor");
    await readUntil(ContactId);
    expect(text.slice(before)).toContain('"Queue":"advisors"');
    controller.abort();
  });
});
