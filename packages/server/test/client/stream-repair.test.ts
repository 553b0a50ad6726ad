/**
 * Issue 9, "Receiving", against the real contact centre: the client repairs from the last
 * item the server's stream brought (never from the answer to its own send), and only once the
 * server has confirmed the `aws/chat` subscription — items committed while the socket was
 * opening reach the client once, in order.
 */
import { describe, expect, it } from "vitest";
import { chatWithAdvisor, type AdvisorChat } from "./support/advisor-chat.js";
import { STARTUP_MS, contactCentrePerTest } from "./support/contact-centre.js";
import { Network, SubscribeGate, networkCheck } from "./support/network.js";
import type { Recorder } from "./support/sessions.js";

const centre = contactCentrePerTest();

/** The texts of the chat's people (advisor and visitor) as a session's onMessage saw them. */
const conversation = (recorder: Recorder): string[] =>
  recorder
    .items()
    .filter(
      (i) => i.Type === "MESSAGE" && (i.ParticipantRole === "AGENT" || i.Content?.startsWith("v ")),
    )
    .map((i) => i.Content ?? "");

const sendAs = async (recorder: Recorder, text: string): Promise<string> =>
  (await recorder.session.sendMessage({ message: text, contentType: "text/plain" })).data.Id;

/** Cut the customer off: its host goes offline and the server drops every socket. */
async function cutCustomer(chat: AdvisorChat, network: Network): Promise<void> {
  network.online = false;
  await networkCheck();
  for (const socket of centre.current.built.app.websocketServer.clients) socket.terminate();
  await chat.customer.waitForEvent("connectionLost");
}

describe("repair from the stream position (issue 9)", () => {
  it(
    "the visitor's own messages sent while its socket is down do not hide the advisor's messages written before them",
    async () => {
      const server = await centre.start();
      const network = new Network();
      const chat = await chatWithAdvisor(server.url, { customer: { isOnline: network.isOnline } });
      const { customer, agent } = chat;
      const before = await sendAs(agent, "a before");
      await customer.waitForItem((i) => i.Id === before);
      const gained = customer.count("connectionEstablished");
      await cutCustomer(chat, network);

      const ids = [
        await sendAs(agent, "a 1"),
        await sendAs(customer, "v 1"),
        await sendAs(agent, "a 2"),
        await sendAs(customer, "v 2"),
      ];
      await agent.waitForItem((i) => i.Id === ids[3]);
      network.online = true;
      await customer.waitForEvent("connectionEstablished", gained + 1);
      await customer.waitUntil(
        () => ids.every((id) => customer.items().some((i) => i.Id === id)),
        "the customer did not get every message",
        20_000,
      );
      const after = await sendAs(agent, "a after");
      await customer.waitForItem((i) => i.Id === after);

      const expected = ["a before", "a 1", "v 1", "a 2", "v 2", "a after"];
      expect(conversation(customer)).toEqual(expected);
      await agent.waitForItem((i) => i.Id === after);
      expect(conversation(agent)).toEqual(expected);
    },
    STARTUP_MS,
  );

  it(
    "messages committed after the socket opened but before aws/chat was confirmed arrive once, in order",
    async () => {
      const server = await centre.start();
      const network = new Network();
      const gate = new SubscribeGate();
      const chat = await chatWithAdvisor(server.url, {
        customer: { isOnline: network.isOnline, WebSocket: gate.WebSocket },
      });
      const { customer, agent } = chat;
      const before = await sendAs(agent, "a before");
      await customer.waitForItem((i) => i.Id === before);
      const gained = customer.count("connectionEstablished");
      await cutCustomer(chat, network);

      gate.held = true;
      network.online = true;
      await customer.waitForEvent("connectionEstablished", gained + 1);
      await customer.waitUntil(() => gate.waiting > 0, "no subscribe frame was held");
      // The socket is open, the subscription not yet confirmed: the server streams nothing to it.
      const during = [await sendAs(agent, "a 1"), await sendAs(agent, "a 2")];
      expect(customer.items().some((i) => during.includes(i.Id))).toBe(false);
      gate.release();

      await customer.waitForItem((i) => i.Id === during[1], "message", 20_000);
      const after = await sendAs(agent, "a after");
      await customer.waitForItem((i) => i.Id === after);
      expect(conversation(customer)).toEqual(["a before", "a 1", "a 2", "a after"]);
    },
    STARTUP_MS,
  );
});
