/** Fakes of the widget's own seams (chat adapter, gateway, storage) for component tests. */
import { ContentType, ItemType } from "@chat-widget/protocol";
import type { AttachmentStatus, Item, StartChatResult } from "@chat-widget/protocol";
import { vi } from "vitest";
import type {
  ChatAdapter,
  ChatConnection,
  ChatHandlers,
  TranscriptPage,
  TranscriptRequest,
} from "../chat/adapter.js";
import type { Gateway } from "../gateway.js";
import type { Logger } from "../logger.js";
import type { ChatStorage, StoredChat } from "../session-storage.js";
import type { WidgetDeps } from "../ChatWidget.js";
import * as views from "../lazy-views/entry.js";
import { readyViews } from "../lazy-views/source.js";

export const CHAT: StartChatResult = {
  ContactId: "contact-1",
  ParticipantId: "customer-1",
  ParticipantToken: "token-1",
};

let seq = 0;
export function item(partial: Partial<Item>): Item {
  seq++;
  return {
    Id: `item-${seq}`,
    AbsoluteTime: new Date(Date.UTC(2025, 0, 1, 10, 0, seq)).toISOString(),
    Type: ItemType.MESSAGE,
    ContentType: ContentType.TEXT_PLAIN,
    ...partial,
  };
}

export const agentMessage = (Content: string, extra: Partial<Item> = {}) =>
  item({
    Content,
    ParticipantRole: "AGENT",
    DisplayName: "Sam",
    ParticipantId: "agent-1",
    ...extra,
  });
/** A file the advisor Sam sent. */
export const advisorFile = (
  id: string,
  name: string,
  contentType: string,
  Status: AttachmentStatus = "APPROVED",
) =>
  item({
    Type: ItemType.ATTACHMENT,
    ContentType: undefined,
    ParticipantRole: "AGENT",
    DisplayName: "Sam",
    Attachments: [{ AttachmentId: id, AttachmentName: name, ContentType: contentType, Status }],
  });
export const botMessage = (Content: string, extra: Partial<Item> = {}) =>
  item({ Content, ParticipantRole: "SYSTEM", DisplayName: "BOT", ...extra });
export const systemMessage = (Content: string, extra: Partial<Item> = {}) =>
  item({ Content, ParticipantRole: "SYSTEM", DisplayName: "SYSTEM_MESSAGE", ...extra });
export const customerMessage = (Content: string, extra: Partial<Item> = {}) =>
  item({
    Content,
    ParticipantRole: "CUSTOMER",
    DisplayName: "Customer",
    ParticipantId: CHAT.ParticipantId,
    ...extra,
  });
export const event = (contentType: string, extra: Partial<Item> = {}) =>
  item({ Type: ItemType.EVENT, ContentType: contentType, ...extra });

/** The bot's interactive message holding `template` (any of the five, as JSON). */
export const interactive = (template: unknown, extra: Partial<Item> = {}): Item =>
  botMessage(JSON.stringify(template), {
    ContentType: ContentType.INTERACTIVE_MESSAGE,
    ...extra,
  });

export function listPicker(title: string, options: string[], extra: Partial<Item> = {}): Item {
  return interactive(
    {
      templateType: "ListPicker",
      version: "1.0",
      data: { content: { title, elements: options.map((o) => ({ title: o })) } },
    },
    extra,
  );
}

/** One transfer of the fake connection: its own progress, finished by the test. */
export interface FakeTransfer {
  /** The file's name (uploads) or the attachment id (downloads). */
  name: string;
  progress: (fraction: number) => void;
  finish: () => void;
}

export class FakeConnection implements ChatConnection {
  sent: { content: string; contentType: string }[] = [];
  events: { contentType: string; content?: string }[] = [];
  disconnects = 0;
  disposed = false;
  transcript: Item[] = [];
  transcriptRequests: TranscriptRequest[] = [];
  failSend = false;
  /** When set, every sendMessage waits for it (the contact centre slow to acknowledge). */
  sendGate: Promise<void> | null = null;
  private nextId = 0;
  /** Uploads under way, each with its own progress; `finish()` completes one. */
  uploads: FakeTransfer[] = [];
  /** When set, downloads wait in `downloads` (each with its own progress) until finished. */
  holdDownloads = false;
  downloads: FakeTransfer[] = [];

  constructor(public handlers: ChatHandlers) {}

  /** The ClientToken of every sendMessage call, failed ones included. */
  clientTokens: (string | undefined)[] = [];

  async sendMessage(content: string, contentType: string, clientToken?: string) {
    this.clientTokens.push(clientToken);
    if (this.sendGate) await this.sendGate;
    if (this.failSend) throw new Error("send failed");
    this.sent.push({ content, contentType });
    return { Id: `sent-${++this.nextId}`, AbsoluteTime: new Date().toISOString() };
  }
  async sendEvent(contentType: string, content?: string) {
    this.events.push(content === undefined ? { contentType } : { contentType, content });
  }
  sendAttachment(file: File, onProgress: (f: number) => void) {
    return new Promise<void>((finish) =>
      this.uploads.push({ name: file.name, progress: onProgress, finish }),
    );
  }
  downloadAttachment(id: string, onProgress?: (f: number) => void) {
    const blob = new Blob([`file ${id}`]);
    if (!this.holdDownloads) return Promise.resolve(blob);
    return new Promise<Blob>((resolve) =>
      this.downloads.push({
        name: id,
        progress: onProgress ?? (() => {}),
        finish: () => resolve(blob),
      }),
    );
  }
  /** Pages of `maxResults`, newest first (BACKWARD), each oldest first; NextToken "page-<n>". */
  async getTranscript(request: TranscriptRequest): Promise<TranscriptPage> {
    this.transcriptRequests.push(request);
    const size = request.maxResults ?? this.transcript.length;
    const page = Number(request.nextToken?.replace("page-", "") ?? 0);
    const end = this.transcript.length - page * size;
    const Transcript = this.transcript.slice(Math.max(0, end - size), Math.max(0, end));
    return end - size > 0 ? { Transcript, NextToken: `page-${page + 1}` } : { Transcript };
  }
  async disconnect() {
    this.disconnects++;
  }
  dispose() {
    this.disposed = true;
  }
  typingEvents() {
    return this.events.filter((e) => e.contentType === ContentType.TYPING);
  }
}

export class FakeAdapter implements ChatAdapter {
  connections: FakeConnection[] = [];
  details: StartChatResult[] = [];
  fail = false;
  /** Fail the next connects as an unreachable contact centre would (`final: false`). */
  unreachable = 0;
  /** Items the server already holds when the next connection is made. */
  transcript: Item[] = [];

  async connect(details: StartChatResult, handlers: ChatHandlers) {
    this.details.push(details);
    if (this.fail) throw new Error("Unable to connect.");
    if (this.unreachable > 0) {
      this.unreachable--;
      throw Object.assign(new Error("Unable to connect."), { final: false });
    }
    const connection = new FakeConnection(handlers);
    connection.transcript = this.transcript;
    this.connections.push(connection);
    return connection;
  }
  get last(): FakeConnection {
    const c = this.connections[this.connections.length - 1];
    if (!c) throw new Error("no connection");
    return c;
  }
}

export function fakeGateway() {
  return {
    verify: vi.fn<Gateway["verify"]>(async () => true),
    startChat: vi.fn<Gateway["startChat"]>(async () => CHAT),
    reportOrderNumber: vi.fn<Gateway["reportOrderNumber"]>(async () => true),
    report: vi.fn<Gateway["report"]>(async () => true),
    forget: vi.fn<NonNullable<Gateway["forget"]>>(),
  } satisfies Gateway;
}

export class MemoryStorage implements ChatStorage {
  value: StoredChat | null = null;
  load() {
    return this.value;
  }
  save(v: StoredChat) {
    this.value = v;
  }
  clear() {
    this.value = null;
  }
}

type LogFn = (...args: unknown[]) => void;
export function fakeLogger() {
  return {
    debug: vi.fn<LogFn>(),
    info: vi.fn<LogFn>(),
    warn: vi.fn<LogFn>(),
    error: vi.fn<LogFn>(),
  } satisfies Logger;
}

export function makeDeps(overrides: Partial<WidgetDeps> = {}) {
  const adapter = new FakeAdapter();
  const gateway = fakeGateway();
  const storage = new MemoryStorage();
  const logger = fakeLogger();
  const deps: WidgetDeps = {
    adapter,
    gateway,
    storage,
    logger,
    views: readyViews(views),
    ...overrides,
  };
  return { deps, adapter, gateway, storage, logger };
}

/** A jwt whose payload is the given JSON (unsigned: the widget only decodes). */
export function jwtWith(payload: unknown): string {
  const b64 = (s: string) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(s)))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  return `${b64(JSON.stringify({ alg: "none", typ: "JWT" }))}.${b64(JSON.stringify(payload))}.sig`;
}
