import { ContentType, ItemType } from "@chat-widget/protocol";
import { describe, expect, it } from "vitest";
import {
  advisorMessage,
  botMessage,
  chatInfo,
  customerMessage,
  event,
} from "../test-support/items.js";
import {
  conversation,
  isBotEcho,
  newChatState,
  withConnection,
  withItems,
  withOutgoing,
  withoutOutgoing,
  withReceipt,
} from "./chat-state.js";

const chat = () => newChatState(chatInfo());

describe("the transcript shows every item exactly once, keyed by its id (docs/decisions.md #5)", () => {
  it("an item delivered by local echo, websocket and transcript fetch is kept once", () => {
    const hello = customerMessage("i1", "Hello");
    let c = withItems(chat(), [hello], false);
    c = withItems(c, [{ ...hello }], false);
    c = withItems(c, [hello, { ...hello }], false);
    expect(c.items.map((i) => i.Id)).toEqual(["i1"]);
  });

  it("items are kept in time order whatever order they arrive in", () => {
    const a = customerMessage("a", "first");
    const b = botMessage("b", "second");
    const c = customerMessage("c", "third");
    const state = withItems(withItems(chat(), [c], false), [b, a], false);
    expect(state.items.map((i) => i.Id)).toEqual(["a", "b", "c"]);
  });

  it("customer, bot and system items are shown; typing and receipts are not", () => {
    const typing = { ...event("t", ContentType.TYPING), Type: ItemType.EVENT };
    const metadata = { ...event("m", "x"), Type: ItemType.MESSAGE_METADATA };
    const state = withItems(
      chat(),
      [
        customerMessage("c", "hi"),
        botMessage("b", "bot"),
        event("j", ContentType.PARTICIPANT_JOINED),
        typing,
        metadata,
      ],
      false,
    );
    expect(state.items.map((i) => i.Id)).toEqual(["c", "b", "j"]);
  });

  it("the widget's automatic echo of a bot message is not shown as a customer message (docs/decisions.md #4)", () => {
    const items = [
      botMessage("b1", "How can we help?"),
      customerMessage("e1", "How can we help?"),
      customerMessage("c1", "Talk to an advisor"),
      customerMessage("c2", "How can we help?"),
    ];
    expect(conversation(items).map((i) => i.Id)).toEqual(["b1", "c1", "c2"]);
  });

  it("leaves out what isBotEcho calls an echo, and only that, in any order of bot, advisor, customer and events", () => {
    const words = ["Hi", "Menu", "Returns"];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    for (let run = 0; run < 50; run++) {
      const items = Array.from({ length: 30 }, (_, i) => {
        const text = words[next(3)]!;
        return [
          botMessage(`b${i}`, text),
          customerMessage(`c${i}`, text),
          advisorMessage(`a${i}`, text),
          event(`e${i}`, ContentType.PARTICIPANT_JOINED, "AGENT", "Sam"),
          { ...botMessage(`i${i}`, text), ContentType: ContentType.INTERACTIVE_MESSAGE },
        ][next(5)]!;
      });
      const expected = items.filter((item, i) => !isBotEcho(item, items.slice(0, i)));
      expect(conversation(items)).toEqual(expected);
    }
  });

  it("a chat-ended item without an id ends the chat and is shown once", () => {
    const synthetic = { ...event("", ContentType.CHAT_ENDED), Id: "", ParticipantRole: undefined };
    let c = withItems(chat(), [synthetic], false);
    c = withItems(c, [synthetic], false);
    expect(c.ended).toBe(true);
    expect(c.items).toHaveLength(1);
  });
});

describe("unread counts", () => {
  it("grow with each new customer or bot message of a chat not in view", () => {
    let c = withItems(chat(), [customerMessage("1", "a"), botMessage("2", "b")], false);
    c = withItems(c, [customerMessage("3", "c"), customerMessage("1", "a")], false);
    expect(c.unread).toBe(3);
  });

  it("ignore the advisor's own messages, events and bot echoes", () => {
    const c = withItems(
      chat(),
      [
        advisorMessage("a", "mine"),
        event("j", ContentType.PARTICIPANT_JOINED),
        botMessage("b", "How can we help?"),
        customerMessage("e", "How can we help?"),
      ],
      false,
    );
    expect(c.unread).toBe(1);
  });

  it("history loaded when the chat opens never counts as unread; later live messages do", () => {
    let c = withItems(chat(), [customerMessage("1", "a"), botMessage("2", "b")], false, false);
    expect(c.items).toHaveLength(2);
    expect(c.unread).toBe(0);
    c = withItems(c, [customerMessage("3", "c")], false);
    expect(c.unread).toBe(1);
  });

  it("stay at zero for the chat in view", () => {
    expect(withItems(chat(), [customerMessage("1", "a")], true).unread).toBe(0);
  });
});

describe("the customer's typing indicator", () => {
  it("is cleared by any incoming customer message and by the chat ending", () => {
    const typing = { ...chat(), customerTyping: true };
    expect(withItems(typing, [customerMessage("1", "hi")], true).customerTyping).toBe(false);
    expect(
      withItems(typing, [event("x", ContentType.CHAT_ENDED, "SYSTEM")], true).customerTyping,
    ).toBe(false);
  });
});

describe("read and delivered marks on the advisor's messages", () => {
  const sent = withItems(
    chat(),
    [advisorMessage("own", "hello"), customerMessage("theirs", "hi")],
    true,
  );

  it("a delivered receipt marks the message delivered, a read receipt marks it read", () => {
    const delivered = withReceipt(sent, "own", "delivered");
    expect(delivered.receipts).toEqual({ own: "delivered" });
    expect(withReceipt(delivered, "own", "read").receipts).toEqual({ own: "read" });
  });

  it("read is never downgraded to delivered", () => {
    const read = withReceipt(sent, "own", "read");
    expect(withReceipt(read, "own", "delivered")).toBe(read);
  });

  it("receipts for messages that are not the advisor's in this chat are ignored", () => {
    expect(withReceipt(sent, "theirs", "read")).toBe(sent);
    expect(withReceipt(sent, "elsewhere", "read")).toBe(sent);
  });
});

describe("the link and the advisor's outgoing messages", () => {
  it("connecting until first up; a loss after that is reconnecting, until up again", () => {
    let c = withConnection(chat(), false);
    expect(c.connection).toBe("connecting");
    c = withConnection(c, true);
    expect(c.connection).toBe("connected");
    c = withConnection(c, false);
    expect(c.connection).toBe("reconnecting");
    expect(withConnection(c, false)).toBe(c);
    expect(withConnection(c, true).connection).toBe("connected");
  });

  it("an outgoing message is added in order, changed in place by its ClientToken, and removed once stored", () => {
    let c = withOutgoing(chat(), { clientToken: "a", content: "one", state: "sending" });
    c = withOutgoing(c, { clientToken: "b", content: "two", state: "sending" });
    c = withOutgoing(c, { clientToken: "a", content: "one", state: "failed" });
    expect(c.outgoing.map((o) => `${o.clientToken}:${o.state}`)).toEqual(["a:failed", "b:sending"]);
    c = withoutOutgoing(c, "a");
    expect(c.outgoing.map((o) => o.clientToken)).toEqual(["b"]);
    expect(withoutOutgoing(c, "zzz")).toBe(c);
  });

  it("the advisor's own transfer.succeeded ends the chat for them as handed on; an earlier advisor's does not (issue 60)", () => {
    const earlier = {
      ...event("t0", ContentType.TRANSFER_SUCCEEDED, "AGENT", "Sam"),
      ParticipantId: "sam-p",
    };
    let c = withItems(chat(), [earlier], true);
    expect([c.ended, c.handedOn]).toEqual([false, false]);
    c = withItems(c, [event("t1", ContentType.TRANSFER_SUCCEEDED, "AGENT", "Kim")], true);
    expect([c.ended, c.handedOn]).toEqual([true, true]);
    expect(c.items.map((i) => i.Id)).toEqual(["t0", "t1"]);
  });
});
