/**
 * Issue 57, finding 4: visitors cannot swell every advisor's queue feed. 20 waiting chats each
 * carrying 100 attributes of 1,024 characters made `GET /agent-api/queue` 2 MB, and a
 * console received the whole queue at every change. Now a queue entry carries the customer's
 * name and order number only, each at most 128 characters, and the events stream sends what
 * changed.
 */
import { AgentApiPath, QUEUE_TEXT_MAX, type QueueResponse } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_JWT_SECRET } from "../../src/demo/demo-jwt.js";
import { signJwt } from "../../src/gateway/jwt.js";
import type { TestServer } from "../support/server.js";
import {
  signIn,
  startFeatureServer,
  widgetCustomer,
  type Advisor,
  type Customer,
} from "./helpers.js";

const WAITING = 20;
const LONG = "x".repeat(1024);

describe("the queue feed", () => {
  let server: TestServer;
  let advisor: Advisor;
  const customers: Customer[] = [];
  beforeAll(async () => {
    server = await startFeatureServer("pglite", { START_CHAT_BURST: "1000" });
    advisor = await signIn(server);
  }, 120_000);
  afterAll(async () => {
    for (const c of customers) c.close();
    await server?.close();
  });

  /** A visitor whose jwt names them at length, who reports 49 long attributes, then waits. */
  async function swollenVisitor(i: number): Promise<Customer> {
    const jwt = signJwt(
      {
        sub: `v${i}`,
        attributes: { customerName: `Name${i} ${LONG}`, orderNumber: `A-${i}${LONG}` },
      },
      DEMO_JWT_SECRET,
    );
    const reported = Object.fromEntries(Array.from({ length: 49 }, (_, k) => [`k${k}`, LONG]));
    const customer = await widgetCustomer(server, reported, { Jwt: jwt });
    customers.push(customer);
    await customer.say("Talk to an advisor");
    return customer;
  }

  const queue = () => advisor.request<QueueResponse>(AgentApiPath.Queue);

  it("carries each waiting customer's name and order number only, each at most 128 characters; a change sends the one entry", async () => {
    for (let i = 0; i < WAITING; i++) await swollenVisitor(i);
    await expect
      .poll(async () => (await queue()).body.Contacts.length, { timeout: 15_000 })
      .toBe(WAITING);
    const whole = await fetch(server.url + AgentApiPath.Queue, {
      headers: { authorization: `Bearer ${advisor.token}` },
    });
    const text = await whole.text();
    // 2.07 MB before; now a few hundred bytes an entry.
    expect(text.length).toBeLessThan(WAITING * 500);
    const entries = (JSON.parse(text) as QueueResponse).Contacts;
    for (const [i, e] of entries.entries()) {
      expect(Object.keys(e).sort()).toEqual(
        ["ContactId", "CustomerName", "OrderNumber", "Queue", "QueuedAt"].sort(),
      );
      expect([...e.CustomerName]).toHaveLength(QUEUE_TEXT_MAX);
      expect(e.CustomerName.startsWith(`Name${i} `)).toBe(true);
      expect([...e.OrderNumber!]).toHaveLength(QUEUE_TEXT_MAX);
    }

    // A console's stream: the whole queue once, then one more visitor is one small change.
    const controller = new AbortController();
    const events = await fetch(server.url + AgentApiPath.Events, {
      headers: { authorization: `Bearer ${advisor.token}` },
      signal: controller.signal,
    });
    const reader = events.body!.getReader();
    let received = "";
    const readUntil = async (needle: string) => {
      while (!received.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        received += new TextDecoder().decode(value);
      }
    };
    await readUntil("event: chats");
    const before = received.length;
    const last = await swollenVisitor(WAITING);
    await readUntil(last.contactId);
    const change = received.slice(before);
    expect(change).toMatch(/^event: queue-change\n/);
    expect(change.length).toBeLessThan(1000);
    controller.abort();
  });
});
