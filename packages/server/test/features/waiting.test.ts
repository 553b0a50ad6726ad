/**
 * Waiting for an advisor (issue 24): the default flow tells the visitor when no advisor is
 * signed in and Available, and each waiting visitor hears their place in the queue as it moves;
 * outside a flow's opening hours the visitor is told so and stays with the bot.
 */
import { AgentApiPath, type QueueResponse } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../support/databases.js";
import { defaultFlowWith } from "../support/flows.js";
import { startServer, type TestServer } from "../support/server.js";
import {
  http,
  isAssistant,
  isPicker,
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
  type Customer,
} from "./helpers.js";

const NO_ADVISOR =
  "No advisor is available right now. You can wait here: the first advisor to be free will answer you. Or come back later.";
const CONNECTING = "Connecting you to an advisor…";
const CLOSED = "Our advisors are away at the moment. Please come back during our opening hours.";
const place = (n: number) => `You are number **${n}** in the queue.`;
const ADMIN_TOKEN = "an-admin-token-of-at-least-32-characters";

const said = (c: Customer) =>
  c
    .items()
    .filter(isAssistant)
    .map((i) => i.Content);
const heard = (c: Customer, text: string) => (i: { Content?: string }) =>
  isAssistant(i as never) && i.Content === text;

/** A visitor who chose "Talk to an advisor" from the bot's menu. */
async function asksForAdvisor(server: TestServer): Promise<Customer> {
  const customer = await widgetCustomer(server, { orderNumber: "A-10042" });
  await customer.waitFor(isPicker);
  await customer.echoBot();
  await customer.say("Talk to an advisor");
  return customer;
}

describe.each(ENGINES)("waiting for an advisor (%s)", (engine) => {
  let server: TestServer;
  let advisor: Advisor;
  const customers: Customer[] = [];
  beforeAll(async () => {
    server = await startFeatureServer(engine, { ADMIN_TOKEN });
  }, 120_000);
  afterAll(async () => {
    for (const c of customers) c.close();
    await server?.close();
  });

  it("with no advisor signed in and Available the visitor is told so, then waits in the queue as number 1", async () => {
    const first = await asksForAdvisor(server);
    customers.push(first);
    await first.waitFor(heard(first, place(1)));
    expect(said(first).slice(-3)).toEqual([NO_ADVISOR, CONNECTING, place(1)]);
  });

  it("with an advisor Available there is no such line; the next visitor is number 2", async () => {
    advisor = await signIn(server);
    expect((await advisor.setAvailability("Available")).status).toBe(200);
    const second = await asksForAdvisor(server);
    customers.push(second);
    await second.waitFor(heard(second, place(2)));
    expect(said(second).slice(-2)).toEqual([CONNECTING, place(2)]);
    expect(said(second)).not.toContain(NO_ADVISOR);
  });

  it("each waiting visitor hears their new place as the queue moves, each place once; a chat taken hears no more", async () => {
    const [first, second] = customers as [Customer, Customer];
    const third = await asksForAdvisor(server);
    customers.push(third);
    await third.waitFor(heard(third, place(3)));

    expect((await advisor.accept(first.contactId)).status).toBe(200);
    await second.waitFor(heard(second, place(1)));
    await third.waitFor(heard(third, place(2)));

    // A fourth visitor joins and leaves while waiting: everyone's place is announced again,
    // then a fifth joins; announcements run in turn, so once the fifth hears its place the
    // others' repeats have been dealt with.
    const fourth = await asksForAdvisor(server);
    await fourth.waitFor(heard(fourth, place(3)));
    fourth.close();
    const left = await fetch(`${server.url}/participant/disconnect`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-amz-bearer": fourth.connectionToken },
      body: "{}",
    });
    expect(left.status).toBe(200);
    await waitForQueueLength(server, advisor, 2);
    const fifth = await asksForAdvisor(server);
    customers.push(fifth);
    await fifth.waitFor(heard(fifth, place(3)));

    expect(said(first).filter((t) => t?.startsWith("You are number"))).toEqual([place(1)]);
    expect(said(second).filter((t) => t?.startsWith("You are number"))).toEqual([
      place(2),
      place(1),
    ]);
    expect(said(third).filter((t) => t?.startsWith("You are number"))).toEqual([
      place(3),
      place(2),
    ]);
  });

  // The flow's answer is kept a second (issue 27); a change made here is seen by the next visitor.
  it("the next visitor hears at once that no advisor is available after the advisor goes Offline, or is disabled", async () => {
    const next = async (): Promise<string[]> => {
      const customer = await asksForAdvisor(server);
      customers.push(customer);
      await customer.waitFor((i) =>
        /You are number/.test((i as { Content?: string }).Content ?? ""),
      );
      return said(customer) as string[];
    };
    expect((await advisor.setAvailability("Offline")).status).toBe(200);
    expect(await next()).toContain(NO_ADVISOR);
    expect((await advisor.setAvailability("Available")).status).toBe(200);
    expect(await next()).not.toContain(NO_ADVISOR);
    const disabled = await http(`${server.url}/admin-api/advisors/demo/disable`, {
      body: {},
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(disabled.status).toBe(200);
    expect(await next()).toContain(NO_ADVISOR);
  });
});

async function waitForQueueLength(server: TestServer, advisor: Advisor, n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const q = await advisor.request<QueueResponse>(AgentApiPath.Queue);
    if (q.body.Contacts.length === n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the queue never held ${n}`);
}

describe("outside the flow's opening hours", () => {
  let server: TestServer;
  let offset = 0;
  const customers: Customer[] = [];
  beforeAll(async () => {
    const dir = defaultFlowWith((flow) => {
      flow.openingHours = { timeZone: "Europe/London", days: { mon: "09:00-17:00" } };
    });
    server = await startServer("pglite", {
      features: true,
      flowsDir: dir,
      clock: { now: () => Date.now() + offset },
    });
  }, 120_000);
  afterAll(async () => {
    for (const c of customers) c.close();
    await server?.close();
  });
  const at = (iso: string) => (offset = Date.parse(iso) - Date.now());

  it("on a Sunday the visitor is told the advisors are away, is not queued, and the bot offers its menu again", async () => {
    at("2026-11-29T12:00:00Z");
    const customer = await asksForAdvisor(server);
    customers.push(customer);
    await customer.waitFor(heard(customer, CLOSED));
    await customer.waitForNth(isPicker, 2);
    expect(said(customer)).not.toContain(CONNECTING);
    const advisor = await signIn(server);
    const queue = await advisor.request<QueueResponse>(AgentApiPath.Queue);
    expect(queue.body.Contacts.map((c) => c.ContactId)).not.toContain(customer.contactId);
  });

  it("on Monday at 10:00 London time the visitor is queued", async () => {
    at("2026-11-30T10:00:00Z");
    const customer = await asksForAdvisor(server);
    customers.push(customer);
    await customer.waitFor(heard(customer, place(1)));
    expect(said(customer)).not.toContain(CLOSED);
  });
});
