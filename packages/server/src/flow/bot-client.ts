/**
 * A company's own bot behind an HTTP endpoint (issue 26): the flow POSTs the visitor's message
 * to it and reads its answer, either JSON messages or text streamed as Server-Sent Events. What
 * comes back is checked here, within time and size limits; anything else is a BotError the
 * runner turns into a system message and a hand-over.
 *
 * Request: `POST url`, JSON `{ requestId, contactId, message: { contentType, content },
 * attributes }`.
 * Answer, one of:
 * - `application/json`: `{ "messages": [{ "contentType", "content" }], "handOver": boolean }`,
 *   content types text/plain, text/markdown or an interactive template (one of the five the
 *   widget shows, within their limits: `checkTemplate`);
 * - `text/event-stream`: each event's data is the next piece of a markdown answer (events named
 *   `text`, or unnamed); an event named `handover` asks for an advisor once the answer is done;
 *   other event names are ignored. The end of the stream completes the answer.
 */
import { checkTemplate, ContentType, Limits } from "@chat-widget/protocol";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { FlowBot } from "./types.js";

/** Default wait for the bot to start answering, and for each next piece of a streamed answer. */
export const BOT_TIMEOUT_MS = 10_000;
/** Default longest time one answer may take, however it trickles in. */
export const BOT_MAX_ANSWER_MS = 60_000;
/** Largest JSON answer, and largest stream, read from a bot. */
export const BOT_MAX_BODY_BYTES = 64 * 1024;
export const BOT_MAX_STREAM_BYTES = 256 * 1024;
/** Most messages in one JSON answer. */
export const BOT_MAX_MESSAGES = 5;

export class BotError extends Error {
  override name = "BotError";
}

export interface BotRequest {
  /** The same when the question is asked again (the flow step performed again after a crash). */
  requestId: string;
  contactId: string;
  message: { contentType: string; content: string };
  attributes: Record<string, string>;
}

/** What the bot said, in order. */
export type BotEvent =
  | { kind: "piece"; text: string }
  | { kind: "message"; contentType: string; content: string }
  | { kind: "handOver" };

export interface BotClientOptions {
  fetch?: typeof fetch;
  /** Values for `{{env.NAME}}` in the bot's header values (default: the process's). */
  env?: Record<string, string | undefined>;
}

const MESSAGE_TYPES = new Set<string>([
  ContentType.TEXT_PLAIN,
  ContentType.TEXT_MARKDOWN,
  ContentType.INTERACTIVE_MESSAGE,
]);

/** `{{env.NAME}}` in a bot's header value: the server's environment variable NAME. */
export const ENV_PLACEHOLDER = /\{\{\s*env\.(\w+)\s*\}\}/g;

/** The bot's header values, `{{env.NAME}}` replaced by the environment's NAME. */
export function botHeaders(
  bot: FlowBot,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(bot.headers ?? {})) {
    headers[name] = value.replace(ENV_PLACEHOLDER, (_, n: string) => env[n] ?? "");
  }
  return headers;
}

/** Ask the bot; yields what it says as it says it; throws a BotError saying what went wrong. */
export async function* askBot(
  bot: FlowBot,
  request: BotRequest,
  options: BotClientOptions = {},
  /** Aborts the request (the server stops): the generator then throws the signal's reason. */
  stopping?: AbortSignal,
): AsyncGenerator<BotEvent> {
  const timeoutMs = bot.timeoutMs ?? BOT_TIMEOUT_MS;
  const abort = new AbortController();
  let why = "";
  const stop = (reason: string) => {
    why ||= reason;
    abort.abort();
  };
  const whole = setTimeout(
    () => stop(`took longer than ${bot.maxAnswerMs ?? BOT_MAX_ANSWER_MS} ms`),
    bot.maxAnswerMs ?? BOT_MAX_ANSWER_MS,
  );
  let quiet: ReturnType<typeof setTimeout> | undefined;
  /** (Re)start the wait for the bot's next sign of life. */
  const waiting = () => {
    clearTimeout(quiet);
    quiet = setTimeout(() => stop(`was silent for ${timeoutMs} ms`), timeoutMs);
  };
  const onStop = () => abort.abort();
  stopping?.addEventListener("abort", onStop);
  const failed = (error: unknown): unknown =>
    stopping?.aborted
      ? stopping.reason
      : error instanceof BotError
        ? error
        : new BotError(why ? `The bot ${why}.` : `The bot could not be reached: ${String(error)}`);
  try {
    waiting();
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(bot.url, {
        method: "POST",
        headers: {
          ...botHeaders(bot, options.env ?? process.env),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(request),
        signal: abort.signal,
        redirect: "error",
      });
    } catch (error) {
      throw failed(error);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new BotError(`The bot answered HTTP ${response.status}.`);
    }
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const body = response.body;
    if (!body) throw new BotError("The bot's answer has no body.");
    const chunks = readChunks(body, waiting);
    try {
      if (type === "text/event-stream") yield* streamed(chunks);
      else if (type === "application/json") yield* fromJson(await readAll(chunks));
      else throw new BotError(`The bot answered with ${type || "no content type"}.`);
    } catch (error) {
      throw failed(error);
    } finally {
      await chunks.return(undefined).catch(() => undefined);
    }
  } finally {
    clearTimeout(whole);
    clearTimeout(quiet);
    stopping?.removeEventListener("abort", onStop);
    abort.abort();
  }
}

/** The body's bytes as they arrive, each arrival restarting the silence timer. */
async function* readChunks(
  body: ReadableStream<Uint8Array>,
  alive: () => void,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      alive();
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

async function readAll(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > BOT_MAX_BODY_BYTES)
      throw new BotError(`The bot's answer is over ${BOT_MAX_BODY_BYTES} bytes.`);
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString("utf8");
}

function* fromJson(text: string): Generator<BotEvent> {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new BotError("The bot's answer is not valid JSON.");
  }
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    throw new BotError("The bot's answer must be a JSON object.");
  }
  const { messages = [], handOver = false } = answer as { messages?: unknown; handOver?: unknown };
  if (!Array.isArray(messages) || messages.length > BOT_MAX_MESSAGES) {
    throw new BotError(`The bot's messages must be a list of at most ${BOT_MAX_MESSAGES}.`);
  }
  if (typeof handOver !== "boolean")
    throw new BotError("The bot's handOver must be true or false.");
  if (messages.length === 0 && !handOver) throw new BotError("The bot said nothing.");
  const checked = messages.map((m: unknown, i) => checkMessage(m, i));
  for (const message of checked) yield { kind: "message", ...message };
  if (handOver) yield { kind: "handOver" };
}

function checkMessage(m: unknown, i: number): { contentType: string; content: string } {
  const at = `The bot's message ${i + 1}`;
  if (typeof m !== "object" || m === null) throw new BotError(`${at} is not an object.`);
  const { contentType, content } = m as { contentType?: unknown; content?: unknown };
  if (typeof contentType !== "string" || !MESSAGE_TYPES.has(contentType)) {
    throw new BotError(`${at} has an unknown contentType.`);
  }
  if (typeof content !== "string" || content.trim() === "") {
    throw new BotError(`${at} has no content.`);
  }
  const max =
    contentType === ContentType.INTERACTIVE_MESSAGE
      ? Limits.JSON_CONTENT_MAX
      : Limits.TEXT_CONTENT_MAX;
  if (content.length > max) throw new BotError(`${at} is longer than ${max} characters.`);
  if (contentType === ContentType.INTERACTIVE_MESSAGE) {
    const checked = checkTemplate(content);
    if ("problem" in checked)
      throw new BotError(`${at} is not a template we show: ${checked.problem}.`);
  }
  return { contentType, content };
}

/** The events of a Server-Sent Events body, as they arrive. */
async function* streamed(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<BotEvent> {
  const decoder = new TextDecoder();
  let pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => void pending.push(event) });
  let size = 0;
  let handOver = false;
  let said = false;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > BOT_MAX_STREAM_BYTES) {
      throw new BotError(`The bot's stream is over ${BOT_MAX_STREAM_BYTES} bytes.`);
    }
    parser.feed(decoder.decode(chunk, { stream: true }));
    const events = pending;
    pending = [];
    for (const event of events) {
      if (event.event === "handover") handOver = true;
      else if ((event.event ?? "text") === "text" && event.data !== "") {
        said = true;
        yield { kind: "piece", text: event.data };
      }
    }
  }
  if (!said && !handOver) throw new BotError("The bot said nothing.");
  if (handOver) yield { kind: "handOver" };
}
