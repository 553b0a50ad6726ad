import { request as httpRequest } from "node:http";
/** Shared steps of the feature integration tests: a server with features, a widget-like customer, an advisor. */
import {
  AgentApiPath,
  ContentType,
  DemoIds,
  GatewayPath,
  SNIPPET_ID_HEADER,
  agentContactPath,
  type AcceptResponse,
  type Item,
  type SignInResponse,
  type StartChatResponse,
} from "@chat-widget/protocol";
import { expect, vi } from "vitest";
import { buildApp, listen, type BuiltApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { call, connectParticipant, FrameClient } from "../support/client.js";
import { startServer, type TestServer } from "../support/server.js";
import { createTestDatabase, type Engine } from "../support/databases.js";
import { sharedRedisEnv } from "../support/shared-redis.js";

export async function startFeatureServer(
  engine: Engine,
  env: Record<string, string> = {},
): Promise<TestServer> {
  return startServer(engine, { features: true, env });
}

export interface TwoProcesses {
  /** Each process's base URL. */
  urls: [string, string];
  close(): Promise<void>;
}

/**
 * Two server processes with features on one new PostgreSQL database and one Redis (each an
 * app of its own: its own store connections, fan-out and limit store), configured with `env`.
 */
export async function startTwoProcesses(env: Record<string, string> = {}): Promise<TwoProcesses> {
  const database = await createTestDatabase("postgres");
  const apps: BuiltApp[] = [];
  const urls: string[] = [];
  const close = async () => {
    for (const app of apps) await app.close();
    await database.drop();
  };
  try {
    for (let i = 0; i < 2; i++) {
      const config = loadConfig({
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "silent",
        DATABASE_URL: database.databaseUrl,
        ...sharedRedisEnv(),
        TOKEN_SECRET: "shared-secret",
        ...env,
      });
      const built = await buildApp(config, { features: true });
      apps.push(built);
      urls.push(await listen(built));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { urls: urls as [string, string], close };
}

export interface JsonReply<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function http<T = Record<string, unknown>>(
  url: string,
  init: {
    method?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<JsonReply<T>> {
  const headers: Record<string, string> = { ...init.headers };
  let payload: string | undefined = init.rawBody;
  if (payload === undefined && init.body !== undefined) {
    payload = JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(url, {
    method: init.method ?? (payload === undefined ? "GET" : "POST"),
    headers,
    body: payload,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

export const startChatBody = (extra: Record<string, unknown> = {}) => ({
  ParticipantDetails: { DisplayName: "Customer" },
  ContactFlowId: DemoIds.CONTACT_FLOW_ID,
  InstanceId: DemoIds.INSTANCE_ID,
  SupportedMessagingContentTypes: [ContentType.TEXT_PLAIN, ContentType.TEXT_MARKDOWN],
  ...extra,
});

/** POST start-chat from the server's own origin, with `startChatBody(extra)` and `headers`. */
export const postStartChat = (
  server: { url: string },
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) =>
  http<StartChatResponse>(server.url + GatewayPath.StartChat, {
    headers: { origin: server.url, ...headers },
    body: startChatBody(extra),
  });

/** What the widget does: verify, start chat, report the order number, connect, subscribe. */
export async function widgetCustomer(
  server: TestServer,
  attributes: Record<string, string> | null,
  startExtra: Record<string, unknown> = {},
  startHeaders: Record<string, string> = {},
) {
  const origin = { origin: server.url };
  const verify = await http(server.url + GatewayPath.Verify, {
    headers: { ...origin, [SNIPPET_ID_HEADER]: DemoIds.SNIPPET_ID },
  });
  if (verify.status !== 200) throw new Error(`verify ${verify.status}`);
  const started = await postStartChat(server, startExtra, startHeaders);
  if (started.status !== 200)
    throw new Error(`start-chat ${started.status} ${JSON.stringify(started.body)}`);
  const result = started.body.data.startChatResult;
  if (attributes) {
    const r = await http(server.url + GatewayPath.DiscussedOrderNumber, {
      headers: { ...origin, "x-amz-bearer": result.ParticipantToken },
      body: {
        InstanceId: DemoIds.INSTANCE_ID,
        InitialContactId: result.ContactId,
        Attributes: attributes,
      },
    });
    if (r.status !== 200) throw new Error(`discussed-order-number ${r.status}`);
  }
  const connection = await connectParticipant(server.url, result.ParticipantToken);
  const socket = await FrameClient.subscribed(connection.websocketUrl);
  // As the widget does: after subscribing, fetch what was said before the socket was open.
  const transcript = await call<{ Transcript: Item[] }>(
    server.url,
    "/participant/transcript",
    connection.connectionToken,
    {
      MaxResults: 100,
      ScanDirection: "FORWARD",
      SortOrder: "ASCENDING",
    },
  );
  if (transcript.status !== 200) throw new Error(`transcript ${transcript.status}`);
  return new Customer(
    server,
    result.ContactId,
    connection.connectionToken,
    socket,
    transcript.body.Transcript,
    result.ParticipantToken,
  );
}

/** A customer of the demo flow who chose "Ask a question" and was asked for it (issue 26). */
export async function askingCustomer(server: TestServer): Promise<Customer> {
  const customer = await widgetCustomer(server, null);
  await customer.waitFor(isPicker);
  await customer.echoBot();
  await customer.say("Ask a question");
  await customer.waitFor((i) => i.ContentType === ContentType.TEXT_PLAIN && i.Content === "input");
  return customer;
}

export const isBotText = (i: Item) =>
  i.Type === "MESSAGE" &&
  i.ParticipantRole === "SYSTEM" &&
  i.DisplayName === "BOT" &&
  i.ContentType === ContentType.TEXT_PLAIN;
export const isPicker = (i: Item) =>
  i.Type === "MESSAGE" && i.ContentType === ContentType.INTERACTIVE_MESSAGE;
export const isAssistant = (i: Item) =>
  i.Type === "MESSAGE" && i.ParticipantRole === "SYSTEM" && i.DisplayName === "Shop assistant";

export class Customer {
  constructor(
    readonly server: TestServer,
    readonly contactId: string,
    readonly connectionToken: string,
    readonly socket: FrameClient,
    private readonly history: Item[] = [],
    /** The token start-chat gave (what the widget keeps for its gateway reports). */
    readonly participantToken = "",
  ) {}

  /** Every item seen, each once (transcript, then websocket). */
  items(): Item[] {
    const seen = new Set<string>();
    return [...this.history, ...this.socket.items()].filter(
      (i) => !seen.has(i.Id) && !!seen.add(i.Id),
    );
  }

  async say(text: string): Promise<void> {
    const r = await call(this.server.url, "/participant/message", this.connectionToken, {
      ContentType: ContentType.TEXT_PLAIN,
      Content: text,
    });
    if (r.status !== 200) throw new Error(`send ${r.status} ${JSON.stringify(r.body)}`);
  }

  /** Echo bot messages as the widget does (docs/product.md §4), except the `input` sentinel. */
  async echoBot(): Promise<void> {
    for (const item of this.items().filter(isBotText)) {
      if (item.Content !== "input" && !this.echoed.has(item.Id)) {
        this.echoed.add(item.Id);
        await this.say(item.Content!);
      }
    }
  }
  private readonly echoed = new Set<string>();

  /** Wait until the flow has (re)settled: a list picker after `count` pickers, for instance. */
  waitFor(match: (i: Item) => boolean, ms = 5000): Promise<Item> {
    return this.waitForNth(match, 1, ms);
  }

  /** Wait for the n-th (1-based) item matching. */
  async waitForNth(match: (i: Item) => boolean, n: number, ms = 5000): Promise<Item> {
    const found = () => this.items().filter(match)[n - 1];
    if (!found()) await this.socket.waitFor(() => found() !== undefined, { ms });
    return found()!;
  }

  close(): void {
    this.socket.socket.close();
  }
}

export async function signIn(
  server: { url: string },
  username = "demo",
  password = "demo",
): Promise<Advisor> {
  const r = await http<SignInResponse>(server.url + AgentApiPath.SignIn, {
    body: { Username: username, Password: password },
  });
  if (r.status !== 200) throw new Error(`sign-in ${r.status}`);
  return new Advisor(server, r.body.Token);
}

export class Advisor {
  constructor(
    readonly server: { url: string },
    readonly token: string,
  ) {}

  request<T = Record<string, unknown>>(
    path: string,
    init: { method?: string; body?: unknown } = {},
  ) {
    return http<T>(this.server.url + path, {
      ...init,
      method:
        init.method ??
        (init.body === undefined && !path.includes("/contacts/") && path !== AgentApiPath.SignOut
          ? "GET"
          : "POST"),
      headers: { authorization: `Bearer ${this.token}` },
    });
  }

  setAvailability(availability: "Available" | "Offline") {
    return this.request(AgentApiPath.Availability, {
      method: "PUT",
      body: { Availability: availability },
    });
  }

  accept(contactId: string) {
    return this.request<AcceptResponse>(agentContactPath(AgentApiPath.Accept, contactId));
  }

  private id: string | undefined;
  /** Their AdvisorId (read once, from Me). */
  async advisorId(): Promise<string> {
    if (this.id) return this.id;
    const me = await this.request<{ Advisor: { AdvisorId: string } }>(AgentApiPath.Me);
    if (me.status !== 200) throw new Error(`me: expected 200, got ${me.status}`);
    return (this.id = me.body.Advisor.AdvisorId);
  }
}

/** Each advisor made Available; their AdvisorIds, in order. */
export async function available<T extends Advisor[]>(
  ...advisors: T
): Promise<{ [K in keyof T]: string }> {
  const ids: string[] = [];
  for (const a of advisors) {
    const r = await a.setAvailability("Available");
    if (r.status !== 200) throw new Error(`availability: expected 200, got ${r.status}`);
    ids.push(await a.advisorId());
  }
  return ids as { [K in keyof T]: string };
}

/** A POST to the admin API (`path`), with its token. */
export const adminPost = <T = Record<string, unknown>>(
  server: { url: string },
  adminToken: string,
  path: string,
  body: unknown = {},
) => http<T>(server.url + path, { body, headers: { authorization: `Bearer ${adminToken}` } });

/** A new advisor added through the admin API, signed in (on `signInServer`: by default, there). */
export async function addAdvisor(
  server: { url: string },
  adminToken: string,
  username: string,
  name: string,
  signInServer: { url: string } = server,
): Promise<Advisor> {
  const added = await adminPost<{ Password: string }>(server, adminToken, "/admin-api/advisors", {
    Username: username,
    Name: name,
  });
  if (added.status !== 200) throw new Error(`add advisor ${added.status}`);
  return signIn(signInServer, username, added.body.Password);
}

/** `customer`, who asked for an advisor, accepted by `advisor` once queued (polled; hooks too). */
export async function heldBy(advisor: Advisor, customer: Customer) {
  const accepted = await vi.waitFor(
    async () => {
      const r = await advisor.accept(customer.contactId);
      if (r.status !== 200) throw new Error(`accept: expected 200, got ${r.status}`);
      return r.body;
    },
    { timeout: 15_000, interval: 50 },
  );
  return { customer, accepted };
}

/** The advisor's events stream on `url`, from its first `chats` frame; `ended` once it ends. */
export async function eventStream(
  url: string,
  advisor: { token: string },
  /** Gets the stream's abort. */
  opened: { close(): void }[],
) {
  const controller = new AbortController();
  opened.push({ close: () => controller.abort() });
  const response = await fetch(url + AgentApiPath.Events, {
    headers: { authorization: `Bearer ${advisor.token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const stream = { text: "", ended: false };
  const reader = response.body!.getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      stream.text += new TextDecoder().decode(value);
    }
    stream.ended = true;
  })();
  await expect.poll(() => stream.text.includes("event: chats"), { timeout: 15_000 }).toBe(true);
  return stream;
}

export interface FromReply {
  status: number;
  retryAfter?: string;
  body: Record<string, string>;
}

/**
 * A JSON POST sent from the given loopback address (127.0.0.0/8 all reaches the server on
 * 127.0.0.1), so the server sees another client address (`request.ip`) than other tests'.
 */
export function postFrom(
  url: string,
  localAddress: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<FromReply> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        localAddress,
        agent: false,
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            ...(res.headers["retry-after"] ? { retryAfter: res.headers["retry-after"] } : {}),
            body: JSON.parse(text) as Record<string, string>,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
