import { ContentType, parseListPicker, type Item } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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

  it("choosing 'Where is my order?' answers with the reported order number", async () => {
    customer = await widgetCustomer(server, { orderNumber: "A-10042" });
    await customer.waitFor(isPicker);
    await customer.echoBot();
    await customer.say("Where is my order?");
    const answer = await customer.waitFor(
      (i) => isAssistant(i) && (i.Content ?? "").includes("A-10042"),
    );
    expect(answer.Content).toContain("**A-10042**");
    const second = await customer.waitForNth(isPicker, 2);
    expect(parseListPicker(second.Content)!.data.content.title).toBe(
      "Is there anything else I can help with?",
    );
    // The echo was protocol traffic: it did not send the customer to the advisors.
    const texts = customer.socket
      .items()
      .filter(isAssistant)
      .map((i: Item) => i.Content);
    expect(texts).not.toContain("Connecting you to an advisor…");
  });

  it("without an order number the bot asks for one and waits with the input sentinel", async () => {
    customer = await widgetCustomer(server, null);
    await customer.waitFor(isPicker);
    await customer.echoBot();
    await customer.say("Where is my order?");
    await customer.waitFor((i) => isBotText(i) && i.Content === "input");
    await customer.say("B-2024");
    const answer = await customer.waitFor(
      (i) => isAssistant(i) && (i.Content ?? "").includes("B-2024"),
    );
    expect(answer.Content).toContain("**B-2024**");
    expect(
      (await server.built.deps.centre.getContact(customer.contactId))!.attributes.orderNumber,
    ).toBe("B-2024");
  });
});
