/**
 * Issue 2, "nothing lost, nothing twice" (design: clients deduplicate by id and repair gaps
 * after a reconnect with getTranscript): while the customer's websocket is down, the advisor
 * keeps writing; after the reconnect the customer's onMessage gets each missed item exactly
 * once, in order. Once with the socket killed server-side, once across a server restart on
 * the same database and port, on PGlite and on PostgreSQL.
 */
import { ContentType, type Item } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import { ENGINES, type Engine } from "../support/databases.js";
import { chatWithAdvisor, type AdvisorChat } from "./support/advisor-chat.js";
import { STARTUP_MS, contactCentrePerTest } from "./support/contact-centre.js";
import { startChat } from "./support/http.js";
import { Network, networkCheck } from "./support/network.js";
import { customerSession, type Recorder } from "./support/sessions.js";

const centre = contactCentrePerTest();

const agentMessages = (customer: Recorder): string[] =>
  customer
    .items()
    .filter((i) => i.ParticipantRole === "AGENT" && i.Type === "MESSAGE")
    .map((i) => i.Content ?? "");

async function send(chat: AdvisorChat, text: string): Promise<string> {
  const sent = await chat.agent.session.sendMessage({ message: text, contentType: "text/plain" });
  return sent.data.Id;
}

function expectEachOnce(customer: Recorder, ids: string[]): void {
  const delivered = customer.items().map((i: Item) => i.Id);
  for (const id of ids) expect(delivered.filter((d) => d === id)).toHaveLength(1);
  const all = delivered.filter((id) => id !== "");
  expect(new Set(all).size).toBe(all.length);
}

describe("nothing lost, nothing twice across a reconnect", () => {
  it(
    "the customer's websocket is killed server-side; the advisor's messages sent meanwhile arrive once, in order",
    async () => {
      const server = await centre.start();
      const network = new Network();
      const chat = await chatWithAdvisor(server.url, { customer: { isOnline: network.isOnline } });
      const { customer } = chat;
      const before = await send(chat, "before");
      await customer.waitForItem((i) => i.Id === before);
      const gained = customer.count("connectionEstablished");

      // The customer's laptop drops off the network and the server loses its socket.
      network.online = false;
      await networkCheck();
      const sockets = [...server.built.app.websocketServer.clients];
      expect(sockets.length).toBeGreaterThanOrEqual(2);
      for (const socket of sockets) socket.terminate();
      await customer.waitForEvent("connectionLost");

      const missed = [
        await send(chat, "missed 1"),
        await send(chat, "missed 2"),
        await send(chat, "missed 3"),
      ];
      await chat.agent.waitForItem((i) => i.Id === missed[2]);
      expect(customer.items().some((i) => missed.includes(i.Id))).toBe(false);

      network.online = true;
      await customer.waitForEvent("connectionEstablished", gained + 1);
      await customer.waitForItem((i) => i.Id === missed[2]);
      const after = await send(chat, "after");
      await customer.waitForItem((i) => i.Id === after);

      expect(agentMessages(customer)).toEqual([
        "before",
        "missed 1",
        "missed 2",
        "missed 3",
        "after",
      ]);
      expectEachOnce(customer, [before, ...missed, after]);
    },
    STARTUP_MS,
  );

  it.each(ENGINES)(
    "the server is down for seconds and restarts on the same %s database and port; both sides, online throughout, reconnect on their own and nothing is lost or doubled",
    async (engine: Engine) => {
      const server = await centre.start({ engine });
      const chat = await chatWithAdvisor(server.url);
      const { customer, agent } = chat;
      const before = await send(chat, "before restart");
      await customer.waitForItem((i) => i.Id === before);
      const customerGained = customer.count("connectionEstablished");
      const agentGained = agent.count("connectionEstablished");

      // HTTP and websockets refused: every URL fetch fails and is retried on the backoff.
      await server.stop();
      await customer.waitForEvent("connectionLost");
      await agent.waitForEvent("connectionLost");
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await server.start();

      await agent.waitForEvent("connectionEstablished", agentGained + 1, 40_000);
      const missed = [await send(chat, "missed 1"), await send(chat, "missed 2")];
      await agent.waitForItem((i) => i.Id === missed[1]);
      await customer.waitForEvent("connectionEstablished", customerGained + 1, 40_000);
      await customer.waitForItem((i) => i.Id === missed[1], "message", 20_000);
      const reply = await customer.session.sendMessage({
        message: "still here",
        contentType: "text/plain",
      });
      await agent.waitForItem((i) => i.Id === reply.data.Id);

      expect(agentMessages(customer)).toEqual(["before restart", "missed 1", "missed 2"]);
      expectEachOnce(customer, [before, ...missed]);
      expect(customer.count("ended") + agent.count("ended")).toBe(0);
      expect(
        agent.items().filter((i) => i.ContentType === ContentType.PARTICIPANT_JOINED),
      ).toHaveLength(
        new Set(
          agent
            .items()
            .filter((i) => i.ContentType === ContentType.PARTICIPANT_JOINED)
            .map((i) => i.Id),
        ).size,
      );
    },
    STARTUP_MS,
  );

  it(
    "a chat that ended while the customer was offline: the reconnect is refused (403) and the session ends (onEnded)",
    async () => {
      const server = await centre.start({ engine: "postgres" });
      const network = new Network();
      const chat = await startChat(server.url);
      const customer = await customerSession(server.url, chat, { isOnline: network.isOnline });
      await customer.session.connect();
      await customer.waitForItem((i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE);

      network.online = false;
      await networkCheck();
      for (const socket of server.built.app.websocketServer.clients) socket.terminate();
      await customer.waitForEvent("connectionLost");
      await server.built.deps.centre.endContact(chat.ContactId);
      network.online = true;

      await customer.waitForEvent("ended");
      const ended = customer.items().filter((i) => i.ContentType === ContentType.CHAT_ENDED);
      expect(ended).toHaveLength(1);
      // The synthetic chat-ended item chatjs makes of the 403 (docs/protocol.md §3.10): empty Id.
      expect(ended[0]!.Id).toBe("");
      expect(customer.count("connectionBroken")).toBe(0);
    },
    STARTUP_MS,
  );
});
