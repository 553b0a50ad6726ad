/**
 * An in-memory participant service behind an injected `fetch`: records every request and
 * answers each operation from an overridable handler (default: a plausible success).
 */
import { ParticipantPath, type Item, type ParticipantOperation } from "@chat-widget/protocol";
import type { FetchLike } from "../env.js";

export interface RecordedRequest {
  op: ParticipantOperation | "other";
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
  rawBody: unknown;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

export const ENDPOINT = "https://participant.connect.us-west-2.amazonaws.com";
export const FAR_EXPIRY = "2099-01-01T00:00:00.000Z";

const OPS = Object.entries(ParticipantPath) as [ParticipantOperation, string][];

export class FakeParticipantService {
  readonly requests: RecordedRequest[] = [];
  readonly handlers: Partial<Record<ParticipantOperation | "other", Handler>> = {};
  transcript: Item[] = [];
  private ids = 0;

  readonly fetch: FetchLike = async (url, init) => {
    const path = new URL(url).pathname;
    const op = OPS.find(([, p]) => path === p || path.startsWith(`${p}/`))?.[0] ?? "other";
    const raw = init?.body;
    const request: RecordedRequest = {
      op,
      url,
      method: init?.method ?? "GET",
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof raw === "string" ? (JSON.parse(raw) as Record<string, unknown>) : null,
      rawBody: raw,
    };
    this.requests.push(request);
    const reply = await (this.handlers[op] ?? ((r: RecordedRequest) => this.defaultReply(r)))(
      request,
    );
    const body =
      reply.body === undefined
        ? "{}"
        : typeof reply.body === "string"
          ? reply.body
          : JSON.stringify(reply.body);
    return new Response(body, { status: reply.status ?? 200, headers: reply.headers ?? {} });
  };

  on(op: ParticipantOperation | "other", handler: Handler): void {
    this.handlers[op] = handler;
  }

  calls(op: ParticipantOperation | "other"): RecordedRequest[] {
    return this.requests.filter((r) => r.op === op);
  }

  private defaultReply(request: RecordedRequest): Reply {
    const id = `id-${++this.ids}`;
    switch (request.op) {
      case "CreateParticipantConnection":
        return {
          body: request.body?.Type
            ? {
                Websocket: { Url: `wss://ws.example.com/${id}`, ConnectionExpiry: FAR_EXPIRY },
                ConnectionCredentials: { ConnectionToken: `conn-${id}`, Expiry: FAR_EXPIRY },
              }
            : {},
        };
      case "SendMessage":
      case "SendEvent":
        return { body: { Id: id, AbsoluteTime: "2025-01-01T10:00:00.000Z" } };
      case "GetTranscript":
        return { body: { InitialContactId: "contact", Transcript: this.transcript } };
      case "StartAttachmentUpload":
        return {
          body: {
            AttachmentId: `att-${id}`,
            UploadMetadata: {
              Url: "https://upload.example.com/put",
              UrlExpiry: FAR_EXPIRY,
              HeadersToInclude: { "Content-Type": "image/png" },
            },
          },
        };
      case "GetAttachment":
        return { body: { Url: "https://download.example.com/file", UrlExpiry: FAR_EXPIRY } };
      case "other":
        return { body: "file-bytes" };
      default:
        return { body: {} };
    }
  }
}
