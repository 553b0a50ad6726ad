/**
 * Issue 57, finding 9: visitor-reported attributes looked signed. Each attribute's source is kept
 * beside the flat Attributes map: the verified jwt ("jwt"), the page's allow-listed start-chat
 * Attributes ("page"), the order-number report ("report") and the flow's saved answers ("flow").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_JWT_SECRET } from "../../src/demo/demo-jwt.js";
import { signJwt } from "../../src/gateway/jwt.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import { signIn, startFeatureServer, widgetCustomer, type Customer } from "./helpers.js";

describe.each(ENGINES)("attribute sources (%s)", (engine) => {
  let server: TestServer;
  const customers: Customer[] = [];
  beforeAll(async () => {
    server = await startFeatureServer(engine, { START_CHAT_ATTRIBUTES: "plan" });
  }, 120_000);
  afterAll(async () => {
    for (const c of customers) c.close();
    await server?.close();
  });

  it("the advisor who accepts a chat reads where each attribute came from; only the jwt's are verified", async () => {
    const advisor = await signIn(server);
    expect((await advisor.setAvailability("Available")).status).toBe(200);
    const jwt = signJwt({ sub: "ann", attributes: { customerName: "Ann" } }, DEMO_JWT_SECRET);
    const customer = await widgetCustomer(
      server,
      { orderNumber: "A-77", identityVerified: "true" },
      { Jwt: jwt, Attributes: { plan: "gold", customerName: "Mallory" } },
    );
    customers.push(customer);
    await customer.say("Talk to an advisor");
    let accepted: Awaited<ReturnType<typeof advisor.accept>> | null = null;
    await expect
      .poll(
        async () => {
          accepted = await advisor.accept(customer.contactId);
          return accepted.status;
        },
        { timeout: 15_000 },
      )
      .toBe(200);
    const body = accepted!.body;
    expect(body.Attributes).toMatchObject({
      customerName: "Ann",
      plan: "gold",
      orderNumber: "A-77",
      identityVerified: "true",
    });
    expect(body.AttributeSources).toMatchObject({
      customerName: "jwt",
      plan: "page",
      orderNumber: "report",
      identityVerified: "report",
    });
    // The chats list carries them too.
    const chats = await advisor.request<{
      Chats: { ContactId: string; AttributeSources: object }[];
    }>("/agent-api/chats");
    const chat = chats.body.Chats.find((c) => c.ContactId === customer.contactId)!;
    expect(chat.AttributeSources).toEqual(body.AttributeSources);
  });
});
