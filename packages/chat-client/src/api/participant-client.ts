/**
 * Typed HTTP client of the participant service (docs/protocol.md §1): JSON bodies, `x-amz-bearer`,
 * errors named like the AWS SDK, retries like its standard mode (3 attempts for throttling
 * and transient errors, the same body and ClientToken each time).
 */
import {
  BEARER_HEADER,
  ContentType,
  ERROR_TYPE_HEADER,
  ParticipantPath,
  REQUEST_ID_HEADER,
  parseAwsErrorMessage,
  parseAwsErrorName,
  type ConnectionType,
  type GetTranscriptRequest,
  type ParticipantOperation,
  type ParticipantOperations,
} from "@chat-widget/protocol";
import type { ClientEnv, Logger } from "../env.js";
import { toRequestError, type RequestError } from "../core/errors.js";
import { withTimeout } from "../core/timeout.js";

export interface ResponseMetadata {
  httpStatusCode: number;
  requestId?: string;
  attempts: number;
  totalRetryDelay: number;
}

export type WithMetadata<T> = T & { $metadata: ResponseMetadata };
export type OperationResult<K extends ParticipantOperation> = WithMetadata<
  ParticipantOperations[K]["response"]
>;

export const MAX_ATTEMPTS = 3;
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const RETRY_BASE_MS = 100;
const THROTTLING_RETRY_BASE_MS = 500;
const MAX_RETRY_DELAY_MS = 20_000;
/** A request with no complete answer by then fails as a TimeoutError (transient: retried). */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Typing events: the first goes out, further ones within 10 s return its promise (docs/protocol.md §2.7). */
export const TYPING_THROTTLE_MS = 10_000;

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

export function defaultEndpoint(region: string): string {
  return `https://participant.connect.${region}.amazonaws.com`;
}

/** Delay before retry number `retry` (1-based), as the SDK's standard strategy computes it. */
export function retryDelayMs(retry: number, throttling: boolean, random: () => number): number {
  const base = throttling ? THROTTLING_RETRY_BASE_MS : RETRY_BASE_MS;
  return Math.floor(Math.min(MAX_RETRY_DELAY_MS, random() * 2 ** retry * base));
}

export interface ParticipantClientOptions {
  /** Base URL; `/participant/...` is appended (a path prefix is kept). */
  endpoint: string;
  env: ClientEnv;
  logger: Logger;
}

export class ParticipantClient {
  readonly #base: string;
  #typing: { at: number; promise: Promise<OperationResult<"SendEvent">> } | null = null;

  readonly #options: ParticipantClientOptions;
  constructor(options: ParticipantClientOptions) {
    this.#options = options;
    this.#base = options.endpoint.replace(/\/+$/, "");
  }

  /** Send one operation; resolves with the body plus `$metadata`, rejects with a RequestError. */
  async request<K extends ParticipantOperation>(
    op: K,
    token: string,
    body: ParticipantOperations[K]["request"] | null,
    pathSuffix = "",
  ): Promise<OperationResult<K>> {
    const { env } = this.#options;
    const init: RequestInit = {
      method: body === null ? "GET" : "POST",
      headers:
        body === null
          ? { [BEARER_HEADER]: token }
          : { "Content-Type": "application/json", [BEARER_HEADER]: token },
      ...(body === null ? {} : { body: JSON.stringify(body) }),
    };
    const url = `${this.#base}${ParticipantPath[op]}${pathSuffix}`;
    let totalRetryDelay = 0;
    for (let attempt = 1; ; attempt++) {
      const { response, text } = await this.#fetchWithin(url, init);
      const parsed = parseBody(text);
      const requestId =
        response.headers.get(REQUEST_ID_HEADER) ??
        response.headers.get("x-amzn-request-id") ??
        response.headers.get("x-amz-request-id") ??
        undefined;
      if (response.status >= 200 && response.status < 300) {
        const $metadata: ResponseMetadata = {
          httpStatusCode: response.status,
          attempts: attempt,
          totalRetryDelay,
        };
        if (requestId) $metadata.requestId = requestId;
        return { ...(parsed as object), $metadata } as OperationResult<K>;
      }
      const type = parseAwsErrorName(
        response.status,
        response.headers.get(ERROR_TYPE_HEADER),
        parsed,
      );
      const throttling = response.status === 429 || type === "ThrottlingException";
      if (attempt < MAX_ATTEMPTS && (throttling || RETRYABLE_STATUS.has(response.status))) {
        // A server's Retry-After (whole seconds) is the least we wait, up to 30 s.
        const delay = Math.max(
          retryDelayMs(attempt, throttling, env.random),
          Math.min(1_000 * Number(response.headers.get("retry-after")) || 0, 30_000),
        );
        totalRetryDelay += delay;
        this.#options.logger.warn(`${op} failed with ${response.status}, retrying in ${delay} ms`);
        await new Promise<void>((resolve) => env.setTimeout(resolve, delay));
        continue;
      }
      const error: RequestError = toRequestError(
        type,
        parseAwsErrorMessage(parsed) ?? type,
        response.status,
      );
      throw error;
    }
  }

  /** One HTTP exchange, answer body included, within REQUEST_TIMEOUT_MS; failures as RequestErrors. */
  async #fetchWithin(
    url: string,
    init: RequestInit,
  ): Promise<{ response: Response; text: string }> {
    const { env } = this.#options;
    const controller = new AbortController();
    const exchange = (async () => {
      try {
        const response = await env.fetch(url, { ...init, signal: controller.signal });
        return { response, text: await response.text() };
      } catch (error) {
        const e = error as Error;
        throw toRequestError(e?.name ?? "Error", e?.message ?? String(error));
      }
    })();
    return withTimeout(env, REQUEST_TIMEOUT_MS, exchange, () => {
      controller.abort();
      return toRequestError("TimeoutError", `No answer within ${REQUEST_TIMEOUT_MS} ms`);
    });
  }

  createParticipantConnection(
    participantToken: string,
    type?: ConnectionType[],
    connectParticipant?: boolean,
  ) {
    const body: ParticipantOperations["CreateParticipantConnection"]["request"] = {};
    if (type) body.Type = type;
    if (connectParticipant) body.ConnectParticipant = true;
    return this.request("CreateParticipantConnection", participantToken, body);
  }

  sendMessage(token: string, content: string, contentType: string, clientToken?: string) {
    return this.request("SendMessage", token, {
      ClientToken: clientToken ?? this.#options.env.uuid(),
      Content: content,
      ContentType: contentType,
    });
  }

  sendEvent(token: string, contentType: string, content?: string | null) {
    const { env } = this.#options;
    if (contentType === ContentType.TYPING) {
      const now = env.now();
      if (this.#typing && now - this.#typing.at < TYPING_THROTTLE_MS) return this.#typing.promise;
      const promise = this.request("SendEvent", token, {
        ClientToken: env.uuid(),
        ContentType: contentType,
      });
      this.#typing = { at: now, promise };
      return promise;
    }
    return this.request("SendEvent", token, {
      ClientToken: env.uuid(),
      ContentType: contentType,
      ...(content === undefined || content === null ? {} : { Content: content }),
    });
  }

  getTranscript(token: string, body: GetTranscriptRequest) {
    return this.request("GetTranscript", token, body);
  }

  startAttachmentUpload(token: string, contentType: string, size: number, name: string) {
    return this.request("StartAttachmentUpload", token, {
      AttachmentName: name,
      AttachmentSizeInBytes: size,
      ClientToken: this.#options.env.uuid(),
      ContentType: contentType,
    });
  }

  completeAttachmentUpload(token: string, attachmentId: string) {
    return this.request("CompleteAttachmentUpload", token, {
      AttachmentIds: [attachmentId],
      ClientToken: this.#options.env.uuid(),
    });
  }

  getAttachment(token: string, attachmentId: string) {
    return this.request("GetAttachment", token, { AttachmentId: attachmentId });
  }

  disconnectParticipant(token: string) {
    return this.request("DisconnectParticipant", token, { ClientToken: this.#options.env.uuid() });
  }

  describeView(token: string, viewToken: string) {
    return this.request("DescribeView", token, null, `/${encodeURIComponent(viewToken)}`);
  }
}

const clients = new WeakMap<ClientEnv, Map<string, ParticipantClient>>();

/**
 * One client per endpoint and environment, kept for the page's life like chatjs's per-region
 * client (so the typing throttle is shared by the sessions of one region).
 */
export function getParticipantClient(
  region: string | undefined,
  endpoint: string | undefined,
  env: ClientEnv,
  logger: Logger,
): ParticipantClient {
  if (!region) throw new Error("Missing region in config");
  const url = endpoint ?? defaultEndpoint(region);
  let byUrl = clients.get(env);
  if (!byUrl) clients.set(env, (byUrl = new Map<string, ParticipantClient>()));
  let client = byUrl.get(url);
  if (!client) byUrl.set(url, (client = new ParticipantClient({ endpoint: url, env, logger })));
  return client;
}
