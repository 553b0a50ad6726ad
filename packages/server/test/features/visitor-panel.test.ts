/**
 * Issue 60 (1a), the visitor panel's route: the advisor holding a live chat reads who its
 * visitor is (name, e-mail, attributes with their sources, browser, system and language from
 * start-chat); once the chat has ended any signed-in advisor does. Another advisor, a waiting
 * chat, every participant token and a stranger are refused; a malformed id is a clear 400.
 */
import { VisitorApiPath, agentContactPath, type VisitorResponse } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_JWT_SECRET } from "../../src/demo/demo-jwt.js";
import { signJwt } from "../../src/gateway/jwt.js";
import { CONTEXT_TEXT_MAX } from "../../src/visitor/context-repo.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  addAdvisor,
  heldBy,
  http,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
  type Customer,
} from "./helpers.js";

const ADMIN_TOKEN = "visitor-panel-admin-token-0123456789abcdef";
const BOUND = { timeout: 15_000 };
const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const visitorPath = (contactId: string) => agentContactPath(VisitorApiPath.Visitor, contactId);

describe.each(ENGINES)("the visitor panel's route (%s)", (engine) => {
  let server: TestServer;
  let holder: Advisor;
  let colleague: Advisor;
  const opened: Customer[] = [];

  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
    holder = await signIn(server);
    expect((await holder.setAvailability("Available")).status).toBe(200);
    colleague = await addAdvisor(server, ADMIN_TOKEN, "colleague", "Sam");
  });
  afterEach(() => {
    for (const c of opened.splice(0)) c.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A visitor whose browser sent `headers` at start-chat, waiting for an advisor. */
  async function waitingVisitor(headers: Record<string, string>, jwt?: string) {
    const customer = await widgetCustomer(server, null, jwt ? { Jwt: jwt } : {}, headers);
    opened.push(customer);
    await customer.say("Talk to an advisor");
    return customer;
  }

  /** `waitingVisitor`, accepted by `holder`: the chat's AGENT credentials. */
  async function heldVisitor(headers: Record<string, string>, jwt?: string) {
    return heldBy(holder, await waitingVisitor(headers, jwt));
  }

  const read = (who: { token: string } | null, contactId: string) =>
    http<VisitorResponse & { message?: string }>(server.url + visitorPath(contactId), {
      headers: who ? { authorization: `Bearer ${who.token}` } : {},
    });

  it("gives the holding advisor who the visitor is, the jwt's attributes marked verified", async () => {
    const jwt = signJwt(
      { attributes: { customerName: "Ada Lovelace", email: "ada@example.com", plan: "gold" } },
      DEMO_JWT_SECRET,
    );
    const { customer } = await heldVisitor(
      { "user-agent": CHROME_WINDOWS, "accept-language": "fr-fr,fr;q=0.9,en;q=0.8" },
      jwt,
    );
    const r = await read(holder, customer.contactId);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ContactId: customer.contactId,
      Name: "Ada Lovelace",
      Email: "ada@example.com",
      Browser: "Chrome 131",
      OperatingSystem: "Windows 10",
      Language: "fr-FR",
    });
    expect(r.body.Attributes).toMatchObject({ email: "ada@example.com", plan: "gold" });
    expect(r.body.AttributeSources).toMatchObject({ email: "jwt", plan: "jwt" });
    expect(Date.parse(r.body.StartedAt)).toBeGreaterThan(Date.now() - 120_000);
  });

  it("names nothing the browser did not say, and keeps a bounded part of a huge User-Agent", async () => {
    const plain = await heldVisitor({ "user-agent": "", "accept-language": "*" });
    const r = await read(holder, plain.customer.contactId);
    expect(r.status).toBe(200);
    expect(r.body.Name).toBe("Customer");
    for (const key of ["Email", "Browser", "OperatingSystem", "Language"])
      expect(r.body).not.toHaveProperty(key);

    const huge = `${CHROME_WINDOWS} ${"x".repeat(7_000)}`;
    const long = await heldVisitor({ "user-agent": huge });
    const read2 = await read(holder, long.customer.contactId);
    expect(read2.status).toBe(200);
    expect(read2.body.Browser).toBe("Chrome 131");
    const [row] = await server.built.deps.db.query<{ n: number }>(
      "SELECT length(user_agent) AS n FROM visitor_context WHERE contact_id = $1",
      [long.customer.contactId],
    );
    expect(Number(row!.n)).toBe(CONTEXT_TEXT_MAX);
  });

  it("refuses another advisor, a waiting chat, participant tokens and strangers", async () => {
    const { customer, accepted } = await heldVisitor({ "user-agent": CHROME_WINDOWS });
    const notFound = (r: { status: number; body: { message?: string } }) => {
      expect(r.status).toBe(404);
      expect(r.body.message).toMatch(/is not one of your chats/);
    };
    notFound(await read(colleague, customer.contactId));
    const waiting = await waitingVisitor({ "user-agent": CHROME_WINDOWS });
    notFound(await read(holder, waiting.contactId));
    notFound(await read(colleague, waiting.contactId));
    notFound(await read(holder, "no-such-contact"));

    for (const token of [
      null,
      { token: "not-a-session" },
      { token: customer.connectionToken },
      { token: accepted.ParticipantToken },
    ]) {
      const r = await read(token, customer.contactId);
      expect(r.status).toBe(403);
      expect(r.body).not.toHaveProperty("Attributes");
    }
  });

  it("says what is wrong with a malformed contact id", async () => {
    const empty = await read(holder, "");
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/contactId/);
    const nul = await read(holder, "a\u0000b");
    expect(nul.status).toBe(400);
    const long = await read(holder, "x".repeat(300));
    expect(long.status).toBe(414);
    expect(long.body.message).toMatch(/max param length/);
  });

  it("lets any signed-in advisor read a chat once it has ended (the team's history)", async () => {
    const { customer } = await heldVisitor({ "user-agent": CHROME_WINDOWS });
    const end = await holder.request(
      agentContactPath("/agent-api/contacts/:contactId/end", customer.contactId),
    );
    expect(end.status).toBe(200);
    await expect
      .poll(async () => (await read(colleague, customer.contactId)).status, BOUND)
      .toBe(200);
    const r = await read(colleague, customer.contactId);
    expect(r.body.Browser).toBe("Chrome 131");
    expect((await read(null, customer.contactId)).status).toBe(403);
  });
});
