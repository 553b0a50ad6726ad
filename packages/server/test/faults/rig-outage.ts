/**
 * Issue 58's rig: two contact-centre processes on one fresh PostgreSQL database and on a Redis
 * of the test's own (redis-server on a free port, nothing persisted), each dependency behind a
 * TCP proxy the test controls:
 * - clients reach the processes through a round-robin proxy (each new connection to the next
 *   process), so chats land on both and a customer and its advisor are often on different ones;
 * - each process reaches Redis through a proxy of its own (one process's Redis can be held back);
 * - both reach PostgreSQL through one proxy (the database can be refused).
 * `killRedis` is a `kill -9` of redis-server; `startRedis` starts an empty one on the same port.
 * `openChats` opens chats with an advisor: our chat client on both sides, or a customer on
 * amazon-connect-chatjs (the UMD bundle loaded under Node, as in test/chatjs.test.ts).
 */
import { randomBytes } from "node:crypto";
import { ContentType, type Item, type StartChatResult } from "@chat-widget/protocol";
import { chatWithAdvisor } from "../client/support/advisor-chat.js";
import { Advisor, json, startChat } from "../client/support/http.js";
import { agentSession, Recorder, type Session } from "../client/support/sessions.js";
import { startChildServer } from "../support/child-server.js";
import { createTestDatabase } from "../support/databases.js";
import { loadChatjs } from "../support/chatjs.js";
import { killProcess, startRedisServer } from "../support/redis-server.js";
import { freePort } from "./rig.js";
import { CHATS_PER_ADVISOR } from "./rig-rolling.js";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy.js";

/** The most one step of closing the rig may take (a process's stop: 10 s to SIGKILL). */
const STEP_MS = 20_000;

export interface OutageRig {
  /** Where clients reach the contact centre: the round-robin proxy. */
  readonly url: string;
  readonly advisors: Advisor[];
  /** Both processes' way to PostgreSQL. */
  readonly database: TcpProxy;
  /** Process 0's and process 1's way to Redis. */
  readonly redis: readonly [TcpProxy, TcpProxy];
  /** SIGKILL redis-server and wait until it is gone. */
  killRedis(): Promise<void>;
  /** Start a new, empty redis-server on the same port; resolves once it accepts connections. */
  startRedis(): Promise<void>;
  close(): Promise<void>;
}

export async function startOutageRig(chats: number): Promise<OutageRig> {
  // Undone in reverse order by close(), or at once when starting fails half-way; each step
  // bounded, so a step that hangs is reported and the others still run.
  const undo: [string, () => Promise<unknown>][] = [];
  const close = async () => {
    const errors: unknown[] = [];
    for (const [what, step] of undo.splice(0).reverse()) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: not done in ${STEP_MS} ms`)), STEP_MS);
      });
      await Promise.race([step(), late]).catch((e: unknown) => errors.push(e));
      clearTimeout(timer);
    }
    if (errors.length > 0) throw new AggregateError(errors, "closing the outage rig");
  };
  try {
    const database = await createTestDatabase("postgres");
    undo.push(["drop the database", () => database.drop()]);
    const direct = new URL(database.databaseUrl);
    const databaseProxy = await startTcpProxy(Number(direct.port || 5432));
    undo.push(["close the database proxy", () => databaseProxy.close()]);
    const proxied = new URL(database.databaseUrl);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(databaseProxy.port);

    const redisPort = await freePort();
    let redis = await startRedisServer(redisPort);
    undo.push(["kill redis-server", () => killProcess(redis)]);
    const redisProxies = [await startTcpProxy(redisPort), await startTcpProxy(redisPort)] as const;
    undo.push(["close the Redis proxies", () => Promise.all(redisProxies.map((p) => p.close()))]);

    const ports = [await freePort(), await freePort()] as const;
    const balancer = await startTcpProxy(ports);
    undo.push(["close the balancer", () => balancer.close()]);
    const adminToken = randomBytes(24).toString("hex");
    const envOf = (index: 0 | 1) => ({
      PORT: String(ports[index]),
      PUBLIC_URL: balancer.url,
      LOG_LEVEL: "info",
      DATABASE_URL: proxied.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisProxies[index].port}`,
      ADMIN_TOKEN: adminToken,
      // Every chat starts from 127.0.0.1: the per-address limits must not turn them away.
      START_CHAT_BURST: String(chats + 10),
      START_CHAT_PER_MINUTE: String(60 * (chats + 10)),
      WEBSOCKETS_PER_ADDRESS: String(4 * chats + 20),
    });
    // One after the other: both would run the migrations at once.
    for (const index of [0, 1] as const) {
      const server = await startChildServer(envOf(index));
      undo.push([`stop process ${index}`, () => server.stop()]);
    }

    const advisors: Advisor[] = [];
    for (let i = 0; i < Math.ceil(chats / CHATS_PER_ADVISOR); i++) {
      const username = `advisor${i}`;
      const created = await json<{ Password: string }>(balancer.url, "/admin-api/advisors", {
        token: adminToken,
        body: { Username: username, Name: `Advisor ${i}`, MaxConcurrentChats: CHATS_PER_ADVISOR },
      });
      advisors.push(await Advisor.signIn(balancer.url, { username, password: created.Password }));
    }

    return {
      url: balancer.url,
      advisors,
      database: databaseProxy,
      redis: redisProxies,
      killRedis: () => killProcess(redis),
      async startRedis() {
        redis = await startRedisServer(redisPort);
      },
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

export interface OutageChat {
  name: string;
  /** The customer is on amazon-connect-chatjs (else on our chat client). */
  chatjs: boolean;
  customer: Recorder;
  agent: Recorder;
}

/** `count` chats, each accepted by one of the rig's advisors; those `chatjs(n)` picks on chatjs. */
export async function openChats(
  rig: OutageRig,
  count: number,
  chatjs: (n: number) => boolean,
): Promise<OutageChat[]> {
  // Each advisor takes its chats one after another; the advisors work side by side.
  const perAdvisor = await Promise.all(
    rig.advisors.map(async (advisor, a) => {
      const mine: OutageChat[] = [];
      for (let n = a * CHATS_PER_ADVISOR; n < Math.min(count, (a + 1) * CHATS_PER_ADVISOR); n++) {
        const name = `chat${n}${chatjs(n) ? "-chatjs" : ""}`;
        if (chatjs(n)) mine.push({ name, chatjs: true, ...(await chatjsChat(rig.url, advisor)) });
        else mine.push({ name, chatjs: false, ...(await chatWithAdvisor(rig.url, { advisor })) });
      }
      return mine;
    }),
  );
  return perAdvisor.flat();
}

type Handler = (event: { data: unknown }) => void;
interface ChatjsSession {
  connect(): Promise<{ connectSuccess: boolean }>;
  sendMessage(args: { message: string; contentType: string }): Promise<unknown>;
  getTranscript(args: object): Promise<{ data: { Transcript?: Item[] } }>;
  disconnectParticipant(): Promise<unknown>;
}
interface Chatjs {
  ChatSession: {
    setGlobalConfig(config: object): void;
    create(options: object): ChatjsSession;
  };
}

/**
 * A chatjs session dressed as our client's, for the Recorder and the traffic helpers: its
 * on<Event> handlers under our event names, and its sends one at a time in the order written,
 * as a page using chatjs must do itself to keep its order (chatjs sends each at once, unretried).
 */
function asSession(chatjs: ChatjsSession): Session {
  let queue: Promise<unknown> = Promise.resolve();
  const session = {
    on(name: string, handler: Handler) {
      const method = (chatjs as unknown as Record<string, unknown>)[
        `on${name[0]!.toUpperCase()}${name.slice(1)}`
      ];
      if (typeof method === "function") (method as (h: Handler) => void).call(chatjs, handler);
    },
    connect: () => chatjs.connect(),
    sendMessage(args: { message: string; contentType: string }) {
      const sent = queue.then(() => chatjs.sendMessage(args));
      queue = sent.catch(() => {});
      return sent;
    },
    getTranscript: (args: object) => chatjs.getTranscript(args),
    disconnectParticipant: () => chatjs.disconnectParticipant(),
  };
  return session as unknown as Session;
}

/** Polls the contact's transcript (every 200 ms, 30 s at most) until an item matches. */
async function untilStored(recorder: Recorder, match: (item: Item) => boolean): Promise<void> {
  for (const deadline = Date.now() + 30_000; ;) {
    const page = await recorder.session.getTranscript({ maxResults: 100, sortOrder: "ASCENDING" });
    if ((page.data.Transcript ?? []).some(match)) return;
    if (Date.now() > deadline) throw new Error("no stored item matched within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * chatjs keeps one participant-service client per region, made with the endpoint of the first
 * session in it: each contact centre (each rig's endpoint) gets a region of its own.
 */
const REGIONS = ["us-west-2", "us-east-1", "eu-west-2", "eu-central-1", "ap-southeast-2"];
const regions = new Map<string, string>();
const regionOf = (base: string): string => {
  if (!regions.has(base)) regions.set(base, REGIONS[regions.size % REGIONS.length]!);
  return regions.get(base)!;
};

/** chatWithAdvisor, with the customer on chatjs. */
async function chatjsChat(base: string, advisor: Advisor) {
  const connect = await loadChatjs<Chatjs>();
  const chat: StartChatResult = await startChat(base, "Alex");
  const region = regionOf(base);
  connect.ChatSession.setGlobalConfig({
    region,
    endpoint: base,
    loggerConfig: { level: "ERROR" },
  });
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
  const customer = new Recorder(asSession(raw));
  if (!(await raw.connect()).connectSuccess) throw new Error("chatjs did not connect");
  await customer.waitForEvent("connectionEstablished");
  // The greeting may come before chatjs's websocket (chatjs reads no gap): read it stored.
  await untilStored(customer, (i) => i.ContentType === ContentType.INTERACTIVE_MESSAGE);
  await raw.sendMessage({ message: "Talk to an advisor", contentType: "text/plain" });
  await advisor.waitForQueued(chat.ContactId);
  const accepted = await advisor.accept(chat.ContactId);
  const agent = await agentSession(base, advisor, accepted);
  if (!(await agent.session.connect()).connectSuccess) throw new Error("agent did not connect");
  await agent.waitForEvent("connectionAcknowledged");
  await agent.waitForEvent("connectionEstablished", 2);
  const joined = (i: Item) =>
    i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "AGENT";
  await customer.waitForItem(joined);
  await agent.waitForItem(joined);
  return { customer, agent };
}
