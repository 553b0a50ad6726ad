/**
 * Issue 9, "Sending", against the real contact centre: a send whose answer is lost after the
 * server stored it is sent again with the same ClientToken, and the transcript holds it once;
 * messages written while the server is down are stored once each, in the order written.
 */
import { describe, expect, it } from "vitest";
import { chatWithAdvisor } from "./support/advisor-chat.js";
import { STARTUP_MS, contactCentrePerTest } from "./support/contact-centre.js";
import type { Recorder } from "./support/sessions.js";

const centre = contactCentrePerTest();

/** Node's fetch, except that the answers to the first `n` SendMessage calls are lost. */
function losingSendAnswers(n: number) {
  const seen = { sends: 0, lost: 0, tokens: [] as string[] };
  const wrapped: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (String(input).endsWith("/participant/message")) {
      seen.sends += 1;
      seen.tokens.push((JSON.parse(String(init?.body)) as { ClientToken: string }).ClientToken);
      if (seen.lost < n) {
        seen.lost += 1;
        await response.arrayBuffer();
        throw new TypeError("fetch failed");
      }
    }
    return response;
  };
  return { fetch: wrapped, seen };
}

async function storedTexts(recorder: Recorder): Promise<string[]> {
  const page = await recorder.session.getTranscript({
    maxResults: 100,
    scanDirection: "BACKWARD",
    sortOrder: "ASCENDING",
  });
  return (page.data.Transcript ?? [])
    .filter((i) => i.Type === "MESSAGE" && i.ParticipantRole === "CUSTOMER")
    .map((i) => i.Content ?? "");
}

describe("the outbox against the real contact centre (issue 9)", () => {
  it(
    "a send whose answer is lost is sent again with the same ClientToken and stored once",
    async () => {
      const server = await centre.start();
      const losing = losingSendAnswers(2);
      const chat = await chatWithAdvisor(server.url, { customer: { fetch: losing.fetch } });
      const { customer, agent } = chat;
      // chatWithAdvisor's own "Talk to an advisor" lost both answers and was retried.
      expect(losing.seen.lost).toBe(2);
      expect(new Set(losing.seen.tokens.slice(0, 3)).size).toBe(1);

      const sent = await customer.session.sendMessage({
        message: "v once",
        contentType: "text/plain",
      });
      await agent.waitForItem((i) => i.Id === sent.data.Id);
      expect((await storedTexts(customer)).filter((t) => t === "Talk to an advisor")).toHaveLength(
        1,
      );
      expect((await storedTexts(customer)).filter((t) => t === "v once")).toHaveLength(1);
    },
    STARTUP_MS,
  );

  it(
    "messages written while the server is down are stored once each, in the order written, once it is back",
    async () => {
      const server = await centre.start();
      const chat = await chatWithAdvisor(server.url);
      const { customer, agent } = chat;
      await server.stop();
      await customer.waitForEvent("connectionLost");
      const texts = ["v 1", "v 2", "v 3", "v 4"];
      const sends = texts.map((message) =>
        customer.session.sendMessage({ message, contentType: "text/plain" }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await server.start();
      const ids = (await Promise.all(sends)).map((r) => r.data.Id);
      await agent.waitUntil(
        () => ids.every((id) => agent.items().some((i) => i.Id === id)),
        "the advisor did not get every message",
        40_000,
      );
      const stored = (await storedTexts(customer)).filter((t) => t.startsWith("v "));
      expect(stored).toEqual(texts);
      const atAgent = agent
        .items()
        .filter((i) => i.Content?.startsWith("v "))
        .map((i) => i.Content);
      expect(atAgent).toEqual(texts);
    },
    STARTUP_MS,
  );
});
