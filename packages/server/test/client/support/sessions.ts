/**
 * Our chat client's sessions, in Node, against the real contact centre: `ws` stands in for
 * the browser's WebSocket, Node's fetch for the browser's. Every event is recorded so a test
 * can wait for what it expects and check that nothing came twice.
 */
import type * as ChatClient from "@chat-widget/chat-client";
import type { ChatEventName, ChatSession, WebSocketConstructor } from "@chat-widget/chat-client";
import type { Item } from "@chat-widget/protocol";
import type { AcceptResponse, StartChatResult } from "@chat-widget/protocol";
import { vi } from "vitest";
import WebSocket from "ws";
import type { Advisor } from "./http.js";

export type Session = ChatSession;

/**
 * A fresh instance of the chat client module, as a separate browser page has: its own global
 * config and its own connection registry. (In one module instance a customer and an agent
 * session of the same contact would share the customer's websocket, as in chatjs.)
 */
async function freshClient(): Promise<typeof ChatClient> {
  vi.resetModules();
  return import("@chat-widget/chat-client");
}

const RECORDED: ChatEventName[] = [
  "message",
  "typing",
  "readReceipt",
  "deliveredReceipt",
  "connectionEstablished",
  "connectionLost",
  "connectionBroken",
  "ended",
  "connectionAcknowledged",
];

export interface Recorded {
  name: ChatEventName;
  data: unknown;
}

/** Records a session's events in arrival order. */
export class Recorder {
  readonly events: Recorded[] = [];
  private waiters: (() => void)[] = [];

  constructor(readonly session: Session) {
    for (const name of RECORDED) {
      session.on(name, (event: { data: unknown }) => {
        this.events.push({ name, data: event.data });
        const waiters = this.waiters;
        this.waiters = [];
        waiters.forEach((wake) => wake());
      });
    }
  }

  /** Items delivered as `name` (default: onMessage). */
  items(name: ChatEventName = "message"): Item[] {
    return this.events.filter((e) => e.name === name).map((e) => e.data as Item);
  }

  count(name: ChatEventName): number {
    return this.events.filter((e) => e.name === name).length;
  }

  /** The first item of event `name` matching, waiting up to `ms`. */
  async waitForItem(
    match: (item: Item) => boolean,
    name: ChatEventName = "message",
    ms = 10_000,
  ): Promise<Item> {
    await this.waitUntil(() => this.items(name).some(match), `no ${name} item matched`, ms);
    return this.items(name).find(match)!;
  }

  async waitForEvent(name: ChatEventName, count = 1, ms = 10_000): Promise<void> {
    await this.waitUntil(() => this.count(name) >= count, `fewer than ${count} ${name}`, ms);
  }

  async waitUntil(done: () => boolean, what: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) {
        const seen = this.events.map((e) => `${e.name}:${describe(e.data)}`);
        throw new Error(`${what}; events: ${seen.join(" | ")}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

function describe(data: unknown): string {
  const item = data as Partial<Item> | null;
  if (!item || typeof item !== "object" || !("Type" in item)) return "";
  return `${item.Type}/${item.ContentType ?? ""}/${item.ParticipantRole ?? ""}/${String(item.Content ?? "").slice(0, 40)}`;
}

export interface SessionOptions {
  /** Whether the session's host is online (a test takes it offline to hold a reconnect back). */
  isOnline?: () => boolean;
  /** The socket class (default `ws`); a test wraps it to hold or drop frames. */
  WebSocket?: WebSocketConstructor;
  /** The HTTP client (default Node's fetch); a test wraps it to lose answers. */
  fetch?: typeof fetch;
  /** Where the client's own log goes, from DEBUG up (default: nowhere). */
  log?: (line: string) => void;
}

/** The client's global config for `endpoint`, with its log sent to `options.log`. */
const globalConfig = (endpoint: string, options: SessionOptions) => {
  const { log } = options;
  if (!log) return { endpoint, region: "eu-west-2" };
  const write =
    (level: string) =>
    (...args: unknown[]) =>
      log(`${new Date().toISOString()} ${level} ${args.map((a) => describeLogged(a)).join(" ")}`);
  const customizedLogger = {
    debug: write("DEBUG"),
    info: write("INFO"),
    warn: write("WARN"),
    error: write("ERROR"),
  };
  return { endpoint, region: "eu-west-2", loggerConfig: { level: 10, customizedLogger } };
};

function describeLogged(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

const env = (options: SessionOptions) => ({
  WebSocket: options.WebSocket ?? (WebSocket as unknown as WebSocketConstructor),
  ...(options.isOnline ? { isOnline: options.isOnline } : {}),
  ...(options.fetch ? { fetch: options.fetch } : {}),
});

/** A CUSTOMER session with the chat details start-chat returned, pointed at `endpoint`. */
export async function customerSession(
  endpoint: string,
  chat: StartChatResult,
  options: SessionOptions = {},
): Promise<Recorder> {
  const { ChatSession } = await freshClient();
  ChatSession.setGlobalConfig(globalConfig(endpoint, options));
  const session = ChatSession.create({
    chatDetails: {
      contactId: chat.ContactId,
      participantId: chat.ParticipantId,
      participantToken: chat.ParticipantToken,
    },
    type: "CUSTOMER",
    env: env(options),
    disableCSM: true,
  });
  return new Recorder(session);
}

/** An AGENT session as the agent console builds it: getConnectionToken asks the agent API. */
export async function agentSession(
  endpoint: string,
  advisor: Advisor,
  accepted: AcceptResponse,
  options: SessionOptions = {},
): Promise<Recorder> {
  const { ChatSession } = await freshClient();
  ChatSession.setGlobalConfig(globalConfig(endpoint, options));
  const session = ChatSession.create({
    chatDetails: {
      contactId: accepted.ContactId,
      initialContactId: accepted.InitialContactId,
      participantId: accepted.ParticipantId,
      participantToken: accepted.ParticipantToken,
      getConnectionToken: () => advisor.connectionToken(accepted.ContactId),
    },
    type: "AGENT",
    env: env(options),
  });
  return new Recorder(session);
}

/** Whether an item is from the bot (SYSTEM, display name BOT). */
export const isBot = (item: Item): boolean =>
  item.ParticipantRole === "SYSTEM" && item.Type === "MESSAGE";
