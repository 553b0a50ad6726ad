/** Fake chat-client sessions and websocket manager that record what the console asks of them. */
import type { ChatSession, CreateSessionArgs, WebSocketManager } from "@chat-widget/chat-client";
import type { Item } from "@chat-widget/protocol";
import { vi } from "vitest";
import type { AgentApi } from "../api/agent-api.js";

type Handler = (event: { data: unknown }) => void;

export class FakeSession {
  readonly handlers = new Map<string, Handler[]>();
  transcript: Item[] = [];
  readonly connect = vi.fn(async () => ({
    connectSuccess: true,
    connectCalled: true,
    _debug: null,
    metadata: null,
  }));
  /** Stored messages get ids m1, m2… in the order sent. */
  private stored = 0;
  readonly sendMessage = vi.fn(
    async (_args: { message: string; contentType: string; clientToken?: string }) => ({
      data: { Id: `m${++this.stored}`, AbsoluteTime: `2026-11-24T10:00:0${this.stored}.000Z` },
      metadata: null,
    }),
  );
  readonly sendEvent = vi.fn(async (_args: { contentType: string }) => ({
    data: {},
    metadata: null,
  }));
  readonly sendMessageReceipt = vi.fn(
    async (_args: { contentType: string; messageId: string }) => ({ data: {}, metadata: null }),
  );
  readonly sendAttachment = vi.fn(async (_args: { attachment: unknown }) => ({
    data: {},
    metadata: null,
  }));
  readonly downloadAttachment = vi.fn(async (_args: { attachmentId: string }) => new Blob(["x"]));
  /** Pages of `maxResults`, newest first (BACKWARD), each oldest first; NextToken "page-<n>". */
  readonly getTranscript = vi.fn(async (request: { maxResults?: number; nextToken?: string }) => {
    const size = request.maxResults ?? 15;
    const page = Number(request.nextToken?.replace("page-", "") ?? 0);
    const end = this.transcript.length - page * size;
    const Transcript = this.transcript.slice(Math.max(0, end - size), end);
    const NextToken = end - size > 0 ? `page-${page + 1}` : undefined;
    return { data: { Transcript, ...(NextToken ? { NextToken } : {}) }, metadata: null };
  });

  constructor(readonly args: CreateSessionArgs) {}

  emit(name: string, data: unknown): void {
    for (const h of this.handlers.get(name) ?? []) h({ data });
  }

  asSession(): ChatSession {
    const on = (name: string) => (cb: Handler) => {
      this.handlers.set(name, [...(this.handlers.get(name) ?? []), cb]);
      return () =>
        this.handlers.set(
          name,
          (this.handlers.get(name) ?? []).filter((h) => h !== cb),
        );
    };
    return {
      connect: this.connect,
      sendMessage: this.sendMessage,
      sendEvent: this.sendEvent,
      sendMessageReceipt: this.sendMessageReceipt,
      sendAttachment: this.sendAttachment,
      downloadAttachment: this.downloadAttachment,
      getTranscript: this.getTranscript,
      onMessage: on("message"),
      onTyping: on("typing"),
      onReadReceipt: on("readReceipt"),
      onDeliveredReceipt: on("deliveredReceipt"),
      onEnded: on("ended"),
      onConnectionEstablished: on("connectionEstablished"),
      onConnectionLost: on("connectionLost"),
      onConnectionBroken: on("connectionBroken"),
    } as unknown as ChatSession;
  }
}

export function fakeSessions(prepare: (session: FakeSession) => void = () => {}) {
  const created: FakeSession[] = [];
  return {
    created,
    factory: {
      create: (args: CreateSessionArgs) => {
        const s = new FakeSession(args);
        prepare(s);
        created.push(s);
        return s.asSession();
      },
    },
  };
}

export function fakeManager() {
  return {
    init: vi.fn(async (fetcher: () => Promise<unknown>) => {
      await fetcher();
      return { websocketInitFailed: false };
    }),
    onInitFailure: vi.fn(() => () => {}),
    terminate: vi.fn(),
  } as unknown as WebSocketManager & {
    init: ReturnType<typeof vi.fn>;
    terminate: ReturnType<typeof vi.fn>;
  };
}

export function fakeApi(overrides: Partial<AgentApi> = {}): AgentApi {
  return {
    baseUrl: "",
    signIn: vi.fn(),
    signOut: vi.fn(async () => {}),
    me: vi.fn(),
    setAvailability: vi.fn(),
    queue: vi.fn(async () => ({ Contacts: [] })),
    chats: vi.fn(async () => ({ Chats: [] })),
    accept: vi.fn(),
    connectionToken: vi.fn(async () => ({
      chatTokenTransport: { participantToken: "ct", expiry: "2026-01-16T10:00:00.000Z" },
    })),
    end: vi.fn(async () => {}),
    visitor: vi.fn(async (_token: string, contactId: string) => ({
      ContactId: contactId,
      Name: "Customer",
      Attributes: {},
      AttributeSources: {},
      StartedAt: "2026-01-16T09:00:00.000Z",
    })),
    earlier: vi.fn(async () => ({ Conversations: [] })),
    history: vi.fn(async () => ({ Conversations: [] })),
    historyAdvisors: vi.fn(async () => ({ Advisors: [] })),
    notes: vi.fn(async () => ({ Notes: [] })),
    tags: vi.fn(async (_token: string, contactId: string) => ({ ContactId: contactId, Tags: [] })),
    setTags: vi.fn(async (_token: string, contactId: string, Tags: string[]) => ({
      ContactId: contactId,
      Tags,
    })),
    tagSuggestions: vi.fn(async () => ({ Tags: [] })),
    wrapUp: vi.fn(),
    transferTargets: vi.fn(async () => ({ Advisors: [], Queue: "advisors" })),
    transfer: vi.fn(),
    canned: vi.fn(async () => ({ Canned: [] })),
    createCanned: vi.fn(),
    updateCanned: vi.fn(),
    deleteCanned: vi.fn(async () => {}),
    addNote: vi.fn(async (_token: string, contactId: string, Body: string) => ({
      NoteId: `note-${Body.length}`,
      ContactId: contactId,
      AdvisorId: "a",
      AdvisorName: "Sam",
      Body,
      CreatedAt: new Date().toISOString(),
      Mentions: [],
    })),
    transcript: vi.fn(async () => ({ Items: [] })),
    websocketTransport: vi.fn(async () => ({
      webSocketTransport: {
        url: "ws://127.0.0.1:1/agent-api/ws?token=t",
        expiry: "",
        transportLifeTimeInSeconds: 3540,
      },
    })),
    eventsUrl: () => "/agent-api/events",
    metricsText: vi.fn(async () => ""),
    ...overrides,
  };
}
