/**
 * Issue 60 (1b), the widget's page report: the chat's own customer, from the page itself,
 * tells the contact centre the page they are on and their time zone; the advisor holding the
 * chat hears of it on their events stream and reads it in the visitor panel. Everyone else,
 * every malformed report and a flood are refused with a clear 4xx, and nothing is stored.
 */
import {
  AgentApiPath,
  DemoIds,
  VISITOR_PAGE_PATH,
  VisitorApiPath,
  agentContactPath,
  type VisitorResponse,
} from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { recordVisitorPage, findVisitorContext } from "../../src/visitor/context-repo.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import {
  eventStream,
  heldBy,
  http,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
  type Customer,
} from "./helpers.js";

const BOUND = { timeout: 15_000 };

describe.each(ENGINES)("the widget's page report (%s)", (engine) => {
  let server: TestServer;
  let advisor: Advisor;
  const opened: { close(): void }[] = [];

  beforeAll(async () => {
    server = await startFeatureServer(engine, {
      RATE_LIMIT_BURST: "20",
      RATE_LIMIT_PER_SECOND: "1",
    });
    advisor = await signIn(server);
    expect((await advisor.setAvailability("Available")).status).toBe(200);
  });
  afterEach(() => {
    for (const o of opened.splice(0)) o.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function customer(): Promise<Customer> {
    const c = await widgetCustomer(server, null);
    opened.push(c);
    return c;
  }

  /** A customer whose chat the advisor accepted. */
  async function heldChat() {
    const c = await customer();
    await c.say("Talk to an advisor");
    return heldBy(advisor, c);
  }

  const report = (
    token: string | null,
    body: Record<string, unknown>,
    origin: string | null = server.url,
  ) =>
    http<{ message?: string; ok?: boolean }>(server.url + VISITOR_PAGE_PATH, {
      body: { InstanceId: DemoIds.INSTANCE_ID, ...body },
      headers: {
        ...(origin ? { origin } : {}),
        ...(token ? { "x-amz-bearer": token } : {}),
      },
    });

  const readVisitor = (contactId: string) =>
    http<VisitorResponse>(server.url + agentContactPath(VisitorApiPath.Visitor, contactId), {
      headers: { authorization: `Bearer ${advisor.token}` },
    });

  it("stores the page without its query, tells the holding advisor, and the panel shows it", async () => {
    const { customer: c } = await heldChat();
    const token = c.participantToken;
    const stream = await eventStream(server.url, advisor, opened);
    const r = await report(token, {
      ContactId: c.contactId,
      Url: `${server.url}/shop/cart?session=secret#pay`,
      Title: "  Your basket  ",
      TimeZone: "Europe/Berlin",
    });
    expect(r.status).toBe(200);
    await expect
      .poll(
        () => stream.text.includes(`event: visitor\ndata: {"ContactId":"${c.contactId}"}`),
        BOUND,
      )
      .toBe(true);
    const visitor = await readVisitor(c.contactId);
    expect(visitor.status).toBe(200);
    expect(visitor.body.TimeZone).toBe("Europe/Berlin");
    expect(visitor.body.Page).toMatchObject({
      Url: `${server.url}/shop/cart`,
      Title: "Your basket",
    });
    expect(Date.parse(visitor.body.Page!.At)).toBeGreaterThan(Date.now() - 60_000);

    // The same page again changes nothing and tells nobody; the next one is told.
    const before = stream.text.split("event: visitor").length;
    expect(
      (
        await report(token, {
          ContactId: c.contactId,
          Url: `${server.url}/shop/cart`,
          Title: "Your basket",
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await report(token, {
          ContactId: c.contactId,
          Url: `${server.url}/checkout`,
          Title: "Checkout",
        })
      ).status,
    ).toBe(200);
    await expect
      .poll(async () => (await readVisitor(c.contactId)).body.Page?.Url, BOUND)
      .toBe(`${server.url}/checkout`);
    await expect.poll(() => stream.text.split("event: visitor").length, BOUND).toBe(before + 1);
    // Its time zone stays when a later report names none.
    expect((await readVisitor(c.contactId)).body.TimeZone).toBe("Europe/Berlin");
  });

  it("keeps the page of a chat still with the bot, shown once an advisor holds it", async () => {
    const c = await customer();
    const r = await report(c.participantToken, {
      ContactId: c.contactId,
      Url: `${server.url}/faq`,
    });
    expect(r.status).toBe(200);
    const [row] = await server.built.deps.db.query<{ page_url: string }>(
      "SELECT page_url FROM visitor_context WHERE contact_id = $1",
      [c.contactId],
    );
    expect(row?.page_url).toBe(`${server.url}/faq`);
  });

  it("does not let an older report replace a newer one", async () => {
    const c = await customer();
    const db = server.built.deps.db;
    const page = (url: string) => ({ url, title: "", timeZone: null });
    expect(
      await recordVisitorPage(db, c.contactId, page("https://a/new"), "2030-01-01T00:00:02.000Z"),
    ).toBe(true);
    expect(
      await recordVisitorPage(db, c.contactId, page("https://a/old"), "2030-01-01T00:00:01.000Z"),
    ).toBe(false);
    expect((await findVisitorContext(db, c.contactId))?.page?.url).toBe("https://a/new");
  });

  it("refuses strangers, other participants and other chats (403), and stores nothing", async () => {
    const { customer: c, accepted } = await heldChat();
    const other = await customer();
    const body = { ContactId: c.contactId, Url: `${server.url}/x` };
    for (const token of [
      null,
      "not-a-token",
      accepted.ParticipantToken,
      other.participantToken,
      c.connectionToken,
    ]) {
      const r = await report(token, body);
      expect(r.status, String(token)).toBe(403);
    }
    expect(await findVisitorContext(server.built.deps.db, c.contactId)).toMatchObject({
      page: null,
    });
    const unknown = await report(c.participantToken, { ...body, InstanceId: "no-such-instance" });
    expect(unknown.status).toBe(404);
  });

  it("says what is wrong with a malformed report (400)", async () => {
    const c = await customer();
    const token = c.participantToken;
    const base = { ContactId: c.contactId, Url: `${server.url}/x` };
    const cases: [Record<string, unknown>, RegExp, string | null][] = [
      [{ ContactId: c.contactId }, /Url/, server.url],
      [{ ...base, Url: "javascript:alert(1)" }, /http or https/, server.url],
      [{ ...base, Url: "https://evil.example/x" }, /own origin/, server.url],
      [base, /own origin/, null],
      [{ ...base, TimeZone: "Mars/Olympus" }, /IANA time zone/, server.url],
      [{ ...base, Title: "t".repeat(300) }, /Title/, server.url],
      [{ ...base, Url: `${server.url}/${"x".repeat(2100)}` }, /Url/, server.url],
    ];
    for (const [body, message, origin] of cases) {
      const r = await report(token, body, origin);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    expect(await findVisitorContext(server.built.deps.db, c.contactId)).toMatchObject({
      page: null,
    });
  });

  it("refuses an ended chat (409) and a flood (429)", async () => {
    const flooding = await customer();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push(
        (
          await report(flooding.participantToken, {
            ContactId: flooding.contactId,
            Url: `${server.url}/p${i}`,
          })
        ).status,
      );
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);

    const { customer: c } = await heldChat();
    const end = await advisor.request(agentContactPath(AgentApiPath.End, c.contactId));
    expect(end.status).toBe(200);
    const r = await report(c.participantToken, {
      ContactId: c.contactId,
      Url: `${server.url}/late`,
    });
    expect(r.status).toBe(409);
  });
});
