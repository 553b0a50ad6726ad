/**
 * A session wired to the fake participant service, a fake websocket manager, a recording
 * logger and fake timers (time starts at 2025-01-01T10:00:00Z).
 */
import { ContentType, ItemType, type Item } from "@chat-widget/protocol";
import { vi } from "vitest";
import { globalConfig } from "../core/global-config.js";
import { LogLevel } from "../core/logger.js";
import type { ClientEnv, Logger } from "../env.js";
import { ChatSession, type CreateSessionArgs } from "../session/chat-session.js";
import type { SessionType } from "../session/chat-details.js";
import { ENDPOINT, FakeParticipantService } from "./fake-participant-service.js";
import { FakeWebSocketManager } from "./fake-manager.js";

export const START = Date.parse("2025-01-01T10:00:00.000Z");

export interface LogEntry {
  level: keyof Logger;
  text: string;
}

export function recordingLogger(): { logger: Logger; entries: LogEntry[]; texts: () => string[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: keyof Logger) =>
    (...args: unknown[]) =>
      entries.push({
        level,
        text: args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "),
      });
  return {
    logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
    entries,
    texts: () => entries.map((e) => e.text),
  };
}

let contacts = 0;

export interface HarnessOptions {
  type?: SessionType;
  chatDetails?: CreateSessionArgs["chatDetails"];
  sharedManager?: boolean;
  endpoint?: string;
}

export function testEnv(service: FakeParticipantService): Partial<ClientEnv> {
  let uuids = 0;
  return {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
    now: () => Date.now(),
    random: () => 0.5,
    fetch: service.fetch,
    uuid: () => `uuid-${++uuids}`,
  };
}

export function createHarness(options: HarnessOptions = {}) {
  useFakeClock();
  const log = recordingLogger();
  globalConfig.update({
    endpoint: options.endpoint ?? ENDPOINT,
    loggerConfig: { customizedLogger: log.logger, level: LogLevel.DEBUG },
  });
  const service = new FakeParticipantService();
  const manager = new FakeWebSocketManager();
  const type = options.type ?? "CUSTOMER";
  const contactId = `contact-${++contacts}`;
  const chatDetails =
    options.chatDetails ??
    (type === "CUSTOMER"
      ? { ContactId: contactId, ParticipantId: "customer-1", ParticipantToken: "participant-token" }
      : {
          contactId,
          participantId: "agent-1",
          participantToken: "agent-participant-token",
          getConnectionToken: () =>
            Promise.resolve({
              chatTokenTransport: {
                participantToken: "agent-conn-token",
                expiry: "2025-01-02T10:00:00.000Z",
              },
            }),
        });
  const session = ChatSession.create({
    chatDetails,
    type,
    env: testEnv(service),
    ...(options.sharedManager
      ? { websocketManager: manager }
      : { webSocketManagerFactory: () => manager }),
  });
  const item = (overrides: Partial<Item> = {}): Item => ({
    AbsoluteTime: new Date(Date.now()).toISOString(),
    Content: "hello",
    ContentType: ContentType.TEXT_PLAIN,
    Id: `item-${Math.random().toString(36).slice(2)}`,
    Type: ItemType.MESSAGE,
    ParticipantId: "agent-1",
    ParticipantRole: "AGENT",
    DisplayName: "Sam",
    ContactId:
      (chatDetails as { ContactId?: string; contactId?: string }).ContactId ??
      (chatDetails as { contactId?: string }).contactId,
    InitialContactId:
      (chatDetails as { ContactId?: string; contactId?: string }).ContactId ??
      (chatDetails as { contactId?: string }).contactId,
    ...overrides,
  });
  return { session, service, manager, log, item, contactId };
}

/** Fake timers and clock; setImmediate stays real so `flush()` and fetch Responses work. */
export function useFakeClock(): void {
  vi.useFakeTimers({
    now: START,
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
  });
}

/** Let pending promise callbacks (fetch, response bodies) run without moving the clock. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
