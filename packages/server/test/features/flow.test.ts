import { checkTemplate, ContentType, parseListPicker, type Item } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/store/db.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  isAssistant,
  isBotText,
  isPicker,
  startFeatureServer,
  widgetCustomer,
  type Customer,
} from "./helpers.js";

describe.each(ENGINES)("contact flow and bot (%s)", (engine) => {
  let server: TestServer;
  let customer: Customer | undefined;
  beforeAll(async () => {
    server = await startFeatureServer(engine);
  }, 120_000);
  afterAll(() => server.close());
  afterEach(() => customer?.close());

  it("the bot greets and sends a list picker that reach the customer's websocket", async () => {
    customer = await widgetCustomer(server, { orderNumber: "A-10042" });
    const picker = await customer.waitFor(isPicker);
    const template = parseListPicker(picker.Content)!;
    expect(picker).toMatchObject({ ParticipantRole: "SYSTEM", DisplayName: "BOT" });
    expect(template.data.content.title).toBe("How can we help?");
    expect(template.data.content.elements.map((e) => e.title)).toContain("Where is my order?");
    const items = customer.items();
    const greeting = items.find(isAssistant)!;
    expect(greeting.ContentType).toBe(ContentType.TEXT_MARKDOWN);
    expect(greeting.Content).toContain("Welcome");
    // The bot's trigger message precedes the picker, so the widget's echo makes the options clickable.
    expect(items.findIndex(isBotText)).toBeLessThan(items.findIndex(isPicker));
    // One SYSTEM participant speaks for the flow, as the assistant and (DisplayName BOT) as the
    // bot: clients show one "has joined" line, not two (issue 17).
    const joined = items.filter(
      (i) => i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "SYSTEM",
    );
    expect(joined.map((i) => i.DisplayName)).toEqual(["Shop assistant"]);
    expect(picker.ParticipantId).toBe(greeting.ParticipantId);
    expect(picker.ParticipantId).toBe(joined[0]!.ParticipantId);
  });

  it("the flow's opening lines commit in one write, in order", async () => {
    const db = server.built.deps.db;
    const [realTransaction, realQuery] = [db.transaction.bind(db), db.query];
    /** Per write (a statement alone, or a transaction), what it appended to the transcripts. */
    const appended: string[] = [];
    const recording =
      (query: Db["query"], slot: number): Db["query"] =>
      (sql, params) => {
        if (sql.includes("INSERT INTO items")) appended[slot] += JSON.stringify(params);
        return query(sql, params);
      };
    db.query = (sql, params) => recording(realQuery.bind(db), appended.push("") - 1)(sql, params);
    db.transaction = (fn) =>
      realTransaction((tx) =>
        fn({ ...tx, query: recording(tx.query.bind(tx), appended.push("") - 1) }),
      );
    try {
      customer = await widgetCustomer(server, null);
      await customer.waitFor(isPicker);
    } finally {
      db.transaction = realTransaction;
      db.query = realQuery;
    }
    const lines = customer
      .items()
      .filter((i) => i.Type === "MESSAGE" && i.ParticipantRole === "SYSTEM");
    expect(lines.map((i) => i.ContentType)).toEqual([
      ContentType.TEXT_MARKDOWN,
      ContentType.TEXT_PLAIN,
      ContentType.INTERACTIVE_MESSAGE,
    ]);
    const committing = (id: string) =>
      appended.flatMap((text, n) => (text.includes(id) ? [n] : []));
    // Greeting, the bot's trigger and the list picker: one write for the three.
    const writes = lines.map((i) => committing(i.Id));
    expect(writes.map((w) => w.length)).toEqual([1, 1, 1]);
    expect(new Set(writes.flat()).size).toBe(1);
  });

  /** The n-th interactive message's template, checked as clients check it. */
  async function nthTemplate(n: number) {
    const item = await customer!.waitForNth(isPicker, n);
    const checked = checkTemplate(item.Content ?? "");
    if (!("template" in checked)) throw new Error(checked.problem);
    return checked.template;
  }

  /** A widget customer with the menu, who chose `option` (the bot's lines echoed first). */
  async function chose(option: string, orderNumber: string | null = "A-10042") {
    customer = await widgetCustomer(server, orderNumber === null ? null : { orderNumber });
    await customer.waitFor(isPicker);
    await customer.echoBot();
    await customer.say(option);
    return customer;
  }

  it("'Where is my order?' answers with a Panel of the reported order's status", async () => {
    const c = await chose("Where is my order?");
    const panel = await nthTemplate(2);
    expect(panel.templateType).toBe("Panel");
    if (panel.templateType !== "Panel") return;
    expect(panel.data.content.title).toBe("Order **A-10042** is on its way");
    expect(panel.data.content.elements.map((e) => e.title)).toContain("Something else");
    await c.echoBot();
    await c.say("Something else");
    const menu = await nthTemplate(3);
    expect(menu.templateType === "ListPicker" && menu.data.content.title).toBe(
      "Is there anything else I can help with?",
    );
    // The echoes were protocol traffic: they did not send the customer to the advisors.
    const texts = c.socket
      .items()
      .filter(isAssistant)
      .map((i: Item) => i.Content);
    expect(texts).not.toContain("Connecting you to an advisor…");
  });

  it("'Returns and refunds' answers, then asks with quick replies; 'No, thanks' ends the chat", async () => {
    const c = await chose("Returns and refunds");
    const quick = await nthTemplate(2);
    expect(quick.templateType).toBe("QuickReply");
    expect(c.items().some((i) => isAssistant(i) && /30 days/.test(i.Content ?? ""))).toBe(true);
    await c.echoBot();
    await c.say("No, thanks");
    await c.waitFor((i) => i.ContentType === ContentType.CHAT_ENDED);
  });

  it("'Book a call back' offers future slots as a TimePicker and books the slot's date sent back", async () => {
    const c = await chose("Book a call back");
    const picker = await nthTemplate(2);
    expect(picker.templateType).toBe("TimePicker");
    if (picker.templateType !== "TimePicker") return;
    const slots = picker.data.content.timeslots;
    expect(slots).toHaveLength(9);
    for (const slot of slots) expect(Date.parse(slot.date)).toBeGreaterThan(Date.now());
    await c.echoBot();
    await c.say(slots[4]!.date);
    await c.waitFor((i) => isAssistant(i) && /call back is booked/.test(i.Content ?? ""));
    const contact = await server.built.deps.centre.getContact(c.contactId);
    expect(contact!.attributes.callBackAt).toBe(slots[4]!.date);
  });

  it("'Our bestsellers' offers a Carousel; the card's option sent back as the hosted widget sends it is named", async () => {
    const c = await chose("Our bestsellers");
    const carousel = await nthTemplate(2);
    expect(carousel.templateType).toBe("Carousel");
    if (carousel.templateType !== "Carousel") return;
    const card = carousel.data.content.elements[1]!;
    const option = card.data.content.elements[0]!.title;
    await c.echoBot();
    await c.say(
      JSON.stringify({
        templateIdentifier: card.templateIdentifier,
        listTitle: card.data.content.title,
        selectionText: option,
      }),
    );
    const answer = await c.waitFor((i) => isAssistant(i) && /Good choice/.test(i.Content ?? ""));
    expect(answer.Content).toContain(`**${option}**`);
  });

  it("without an order number the bot asks for one and waits with the input sentinel", async () => {
    customer = await widgetCustomer(server, null);
    await customer.waitFor(isPicker);
    await customer.echoBot();
    await customer.say("Where is my order?");
    await customer.waitFor((i) => isBotText(i) && i.Content === "input");
    await customer.say("B-2024");
    const panel = await nthTemplate(2);
    expect(panel.templateType === "Panel" && panel.data.content.title).toContain("**B-2024**");
    expect(
      (await server.built.deps.centre.getContact(customer.contactId))!.attributes.orderNumber,
    ).toBe("B-2024");
  });
});
