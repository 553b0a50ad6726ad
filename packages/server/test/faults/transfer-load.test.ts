/**
 * Issue 60 (4) in the fault suite's style: transfer under load. A real server process on each
 * store; a customer (our chat client, then amazon-connect-chatjs 5.0.0) writes c-1, c-2, …
 * every 200 ms while whichever advisor holds the chat writes a-1, a-2, … every 150 ms through
 * its AGENT participant connection (SendMessage with a ClientToken). The chat goes Sam → Kim
 * (a transfer to an advisor; Kim learns she holds it from her chats list, as her console does)
 * → the queue → Lee (Kim hands it back to the queue, Lee accepts it there): both of the
 * route's paths hand a chat over in the middle of traffic. The advisors' messages are one
 * ordered stream, one in flight at a time: refused with 403 (its sender no longer holds the
 * chat), a message is sent again by the next holder, never dropped (any other failure fails
 * the test). Lee accepts only once Kim's token was refused, so that path is taken every run.
 * Afterwards: the customer saw every message of both sides exactly once, in send order per
 * sender; Lee's GetTranscript holds each once, in order, each advisor's between its joining
 * and its leaving; Sam's and Kim's participant and connection tokens are refused (403), and
 * what they send is not stored.
 */
import { randomBytes, randomUUID } from "node:crypto";
import {
  AgentApiPath,
  ContentType,
  ParticipantPath,
  TransferApiPath,
  agentContactPath,
  type ChatsResponse,
  type Item,
  type StartChatResult,
  type TransferRequest,
  type TransferResponse,
} from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Advisor, json, startChat } from "../client/support/http.js";
import { customerSession, Recorder, type Session } from "../client/support/sessions.js";
import { loadChatjs } from "../support/chatjs.js";
import { startChildServer, type ChildServer } from "../support/child-server.js";
import { call, connectParticipant } from "../support/client.js";
import { createTestDatabase, ENGINES, type TestDatabase } from "../support/databases.js";
import { Talker, numbers } from "./traffic.js";

/* eslint-disable @typescript-eslint/no-explicit-any -- chatjs's UMD bundle has no types */

/** Generous bounds for a loaded 2-core machine: a test waits for its state, never this long. */
const SETTLE_MS = 120_000;
const SCENARIO_MS = 400_000;
const ADVISOR_EVERY_MS = 150;
/** Messages each side gets acknowledged under each holder before the chat moves on. */
const PER_HOLDER = 6;
const ADMIN_TOKEN = randomBytes(24).toString("hex");
const SEND = ParticipantPath.SendMessage;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} (waited ${SETTLE_MS} ms)`);
    await pause(25);
  }
}

type Holder = { name: string; ParticipantId: string; ParticipantToken: string } & {
  connectionToken: string;
};

/** The advisors' side: a-1, a-2, … one at a time, each sent until a holder acknowledged it. */
class AdvisorPen {
  readonly acked: { n: number; id: string; by: string }[] = [];
  readonly refused: { n: number; by: string }[] = [];
  /** Set when an advisor learns it holds the chat: it writes from then on. */
  holder: Holder | null = null;
  private readonly out = new Set<Holder>();
  private stopping = false;
  private running = Promise.resolve();

  constructor(private readonly base: string) {}

  start(): void {
    this.running = this.run();
    this.running.catch(() => {}); // stop() reports it
  }
  /** Stops once the message in hand is acknowledged; throws if it never was. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
  }
  ackedBy = (name: string) => this.acked.filter((a) => a.by === name).length;

  private async run(): Promise<void> {
    for (let n = 1; !this.stopping; n++) {
      for (;;) {
        await until(() => !!this.holder && !this.out.has(this.holder), `a-${n}: nobody holds it`);
        const h = this.holder!;
        const body = { ContentType: "text/plain", Content: `a-${n}`, ClientToken: randomUUID() };
        const r = await call<{ Id: string }>(this.base, SEND, h.connectionToken, body);
        if (r.status === 200) {
          this.acked.push({ n, id: r.body.Id, by: h.name });
          break;
        }
        // No fault here: any other answer is the server's failure, not one to retry.
        if (r.status !== 403) throw new Error(`a-${n} by ${h.name}: ${r.status}`);
        this.out.add(h);
        this.refused.push({ n, by: h.name });
      }
      await pause(ADVISOR_EVERY_MS);
    }
  }
}

/** chatjs keeps one participant client per region, made with its first endpoint. */
const regions = new Map<string, string>();

/** A chatjs CUSTOMER session dressed as our client's for Recorder and Talker (sends in order). */
async function chatjsCustomer(base: string, chat: StartChatResult): Promise<Recorder> {
  const connect = await loadChatjs<any>();
  if (!regions.has(base)) regions.set(base, ["us-west-2", "us-east-1", "eu-west-2"][regions.size]!);
  const region = regions.get(base)!;
  connect.ChatSession.setGlobalConfig({ region, endpoint: base, loggerConfig: { level: "ERROR" } });
  const raw = connect.ChatSession.create({
    chatDetails: {
      ContactId: chat.ContactId,
      ParticipantId: chat.ParticipantId,
      ParticipantToken: chat.ParticipantToken,
    },
    type: "CUSTOMER",
    options: { region },
    disableCSM: true,
  });
  let queue: Promise<unknown> = Promise.resolve();
  const session = {
    on: (name: string, handler: unknown) =>
      raw[`on${name[0]!.toUpperCase()}${name.slice(1)}`]?.(handler),
    connect: () => raw.connect(),
    sendMessage(args: object) {
      const sent = queue.then(() => raw.sendMessage(args));
      queue = sent.catch(() => {});
      return sent;
    },
    getTranscript: (args: object) => raw.getTranscript(args),
  };
  return new Recorder(session as unknown as Session);
}

const CUSTOMERS = {
  "our chat client": (base: string, chat: StartChatResult) => customerSession(base, chat),
  "amazon-connect-chatjs 5.0.0": chatjsCustomer,
};

/**
 * `items` hold `prefix`-1 … -N once each, in order (lost, twice and out of order counted by
 * number), and they are the very items acknowledged (`acked`: their ids in send order).
 */
function deliveredOnce(prefix: string, acked: string[], items: Item[], where: string): void {
  const seq = numbers(prefix, items);
  const report = {
    sent: acked.length,
    lost: acked.filter((_, i) => !seq.includes(i + 1)).length,
    twice: seq.length - new Set(seq).size,
    outOfOrder: seq.filter((n, i) => i > 0 && n < seq[i - 1]!).length,
  };
  expect(report, where).toEqual({ sent: acked.length, lost: 0, twice: 0, outOfOrder: 0 });
  const ids = items.filter((i) => numbers(prefix, [i]).length === 1).map((i) => i.Id);
  expect(ids, where).toEqual(acked);
}

describe.each(ENGINES)("transfer under load, twice (%s)", (engine) => {
  let server: ChildServer;
  let database: TestDatabase;
  let base: string;
  const advisors = {} as Record<"Sam" | "Kim" | "Lee", Advisor>;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    const store: Record<string, string> =
      engine === "postgres" ? { DATABASE_URL: database.databaseUrl } : { DATA_DIR: "memory" };
    server = await startChildServer({ ...store, ADMIN_TOKEN });
    base = server.url;
    advisors.Sam = await Advisor.signIn(base); // the demo advisor; each signs in Available
    for (const name of ["Kim", "Lee"] as const) {
      const username = name.toLowerCase();
      const added = await json<{ Password: string }>(base, "/admin-api/advisors", {
        token: ADMIN_TOKEN,
        body: { Username: username, Name: name },
      });
      advisors[name] = await Advisor.signIn(base, { username, password: added.Password });
    }
  }, SETTLE_MS);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  }, SETTLE_MS);

  const agentPost = <T>(who: Advisor, path: string, contactId: string, body: unknown = {}) =>
    json<T>(base, agentContactPath(path, contactId), { token: who.token, body });
  const holder = async (name: string, chat: Omit<Holder, "name" | "connectionToken">) => ({
    name,
    ParticipantId: chat.ParticipantId,
    ParticipantToken: chat.ParticipantToken,
    connectionToken: (await connectParticipant(base, chat.ParticipantToken)).connectionToken,
  });
  const transcript = async (h: Holder): Promise<Item[]> => {
    const items: Item[] = [];
    let NextToken: string | undefined;
    do {
      const page = await call<{ Transcript: Item[]; NextToken?: string }>(
        base,
        ParticipantPath.GetTranscript,
        h.connectionToken,
        { MaxResults: 100, ScanDirection: "FORWARD", SortOrder: "ASCENDING", NextToken },
      );
      expect(page.status).toBe(200);
      items.push(...page.body.Transcript);
      NextToken = page.body.NextToken;
    } while (NextToken);
    return items;
  };

  it.each(Object.keys(CUSTOMERS) as (keyof typeof CUSTOMERS)[])(
    "customer on %s: 0 lost, 0 twice, 0 out of order; Sam's and Kim's tokens refused afterwards",
    async (kind) => {
      const { Sam, Kim, Lee } = advisors;
      const chat = await startChat(base, "Alex");
      const contactId = chat.ContactId;
      const customer = await CUSTOMERS[kind](base, chat);
      expect((await customer.session.connect()).connectSuccess).toBe(true);
      // The greeting may come before chatjs's websocket (it reads no gap): wait for it stored.
      const greeted = (i: Item) => i.ContentType === ContentType.INTERACTIVE_MESSAGE;
      await until(async () => {
        const page = await customer.session.getTranscript({ maxResults: 100 });
        return (page.data.Transcript ?? []).some(greeted);
      }, "no greeting");
      const ask = { message: "Talk to an advisor", contentType: "text/plain" };
      await customer.session.sendMessage(ask);
      await Sam.waitForQueued(contactId, SETTLE_MS);
      const sam = await holder("Sam", await Sam.accept(contactId));

      const talker = new Talker(customer, "c");
      const pen = new AdvisorPen(base);
      pen.holder = sam;
      talker.start(200);
      pen.start();
      const moreTraffic = async (by: string) => {
        const from = talker.acked.length;
        await until(
          () => pen.ackedBy(by) >= PER_HOLDER && talker.acked.length >= from + PER_HOLDER,
          `${by}: the traffic stalled`,
        );
      };
      await moreTraffic("Sam");

      let kimChat: ChatsResponse["Chats"][number] | undefined;
      const kimLearns = until(async () => {
        const chats = await json<ChatsResponse>(base, AgentApiPath.Chats, { token: Kim.token });
        kimChat = chats.Chats.find((c) => c.ContactId === contactId);
        return !!kimChat;
      }, "Kim never held the chat");
      const transfer = (who: Advisor, body: TransferRequest) =>
        agentPost<TransferResponse>(who, TransferApiPath.Transfer, contactId, body);
      const kimId = Kim.signIn.Advisor.AdvisorId;
      expect((await transfer(Sam, { AdvisorId: kimId })).AdvisorId).toBe(kimId);
      await kimLearns;
      const kim = await holder("Kim", kimChat!);
      pen.holder = kim;
      await moreTraffic("Kim");

      expect((await transfer(Kim, { Queue: true })).AdvisorId).toBeNull();
      await Lee.waitForQueued(contactId, SETTLE_MS);
      await until(() => pen.refused.some((r) => r.by === "Kim"), "Kim's sends were never refused");
      const lee = await holder("Lee", await Lee.accept(contactId));
      pen.holder = lee;
      await moreTraffic("Lee");

      await talker.stop(SETTLE_MS);
      await pen.stop();
      const cAcked = [...talker.acked].sort((x, y) => x.n - y.n).map((a) => a.id);
      const aAcked = pen.acked.map((a) => a.id);
      await customer.waitUntil(
        () => [...cAcked, ...aAcked].every((id) => customer.items().some((i) => i.Id === id)),
        "the customer did not get every acknowledged message",
        SETTLE_MS,
      );

      // Every message written was acknowledged, by the holders in turn (a refused one by the next).
      expect(talker.failed).toEqual([]);
      expect(cAcked).toHaveLength(talker.count);
      expect(pen.acked.map((a) => a.n)).toEqual(pen.acked.map((_, i) => i + 1));
      const turns = pen.acked.map((a) => a.by).filter((by, i, all) => by !== all[i - 1]);
      expect(turns).toEqual(["Sam", "Kim", "Lee"]);
      expect(pen.refused.filter((r) => r.by === "Lee")).toEqual([]);

      // The customer: each message once, in send order per sender; its session still on.
      const seen = customer.items();
      deliveredOnce("c", cAcked, seen, "the customer's own, seen");
      deliveredOnce("a", aAcked, seen, "the advisors', seen");
      expect(seen.filter((i) => i.ContentType === ContentType.TRANSFER_SUCCEEDED)).toHaveLength(2);
      expect(customer.count("ended")).toBe(0);

      // Lee's transcript: every message once, in order; each advisor's between its join and leave.
      const stored = await transcript(lee);
      deliveredOnce("c", cAcked, stored, "the customer's, stored");
      deliveredOnce("a", aAcked, stored, "the advisors', stored");
      const at = (h: Holder, type: string) =>
        stored.findIndex((i) => i.ContentType === type && i.ParticipantId === h.ParticipantId);
      const [JOINED, MOVED, LEFT] = [
        ContentType.PARTICIPANT_JOINED,
        ContentType.TRANSFER_SUCCEEDED,
        ContentType.PARTICIPANT_LEFT,
      ];
      const marks = [sam, kim].flatMap((h) => [at(h, JOINED), at(h, MOVED), at(h, LEFT)]);
      marks.push(at(lee, JOINED));
      expect(marks.every((x) => x >= 0)).toBe(true);
      expect([...marks].sort((x, y) => x - y)).toEqual(marks);
      const placed = (h: Holder) =>
        pen.acked.filter((a) => a.by === h.name).map((a) => stored.findIndex((i) => i.Id === a.id));
      expect(placed(sam).every((p) => p > marks[0]! && p < marks[2]!)).toBe(true);
      expect(placed(kim).every((p) => p > marks[3]! && p < marks[5]!)).toBe(true);
      expect(placed(lee).every((p) => p > marks[6]!)).toBe(true);
      // Committed between the handing advisor's transfer.succeeded and its leaving (reported).
      const late = [
        placed(sam).filter((p) => p > marks[1]!),
        placed(kim).filter((p) => p > marks[4]!),
      ];

      // Sam's and Kim's AGENT tokens are refused, and what they send is not stored.
      for (const h of [sam, kim]) {
        const statuses = [
          await call(base, ParticipantPath.CreateParticipantConnection, h.ParticipantToken, {
            Type: ["CONNECTION_CREDENTIALS"],
          }),
          await call(base, SEND, h.connectionToken, {
            ContentType: ContentType.TEXT_PLAIN,
            Content: `late from ${h.name}`,
          }),
          await call(base, ParticipantPath.GetTranscript, h.connectionToken, { MaxResults: 10 }),
        ].map((r) => r.status);
        expect(statuses, `${h.name}: connection, send, transcript`).toEqual([403, 403, 403]);
      }
      expect((await transcript(lee)).filter((i) => i.Content?.startsWith("late from"))).toEqual([]);
      const by = ["Sam", "Kim", "Lee"].map((n) => `${n} ${pen.ackedBy(n)}`).join(", ");
      console.info(
        `${engine}, ${kind}: c ${cAcked.length}, a ${aAcked.length} (${by}); refused, then sent ` +
          `by the next holder: ${JSON.stringify(pen.refused)}; committed after transfer.succeeded` +
          `, before leaving: ${late.map((l) => l.length).join("/")}`,
      );
      await agentPost(Lee, AgentApiPath.End, contactId);
      await customer.waitForEvent("ended", 1, SETTLE_MS);
    },
    SCENARIO_MS,
  );
});
