/** A recording fetch for telemetry tests: answers from a script, never touches the network. */
import type { FetchLike, Logger } from "../../env.js";

export interface RecordedRequest {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
}

export type FakeReply = { status: number; body?: unknown } | Error;

export interface FakeFetch {
  fetch: FetchLike;
  requests: RecordedRequest[];
  /** Requests whose URL ends with `path`. */
  to(path: string): RecordedRequest[];
}

export function fakeFetch(
  reply: (request: RecordedRequest) => FakeReply = () => ({ status: 200, body: {} }),
): FakeFetch {
  const requests: RecordedRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    const request: RecordedRequest = {
      url,
      method: init?.method,
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      body: typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : init?.body,
    };
    requests.push(request);
    const answer = reply(request);
    if (answer instanceof Error) throw answer;
    const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
    return { status: answer.status, text: async () => text } as unknown as Response;
  };
  return { fetch, requests, to: (path) => requests.filter((r) => r.url.endsWith(path)) };
}

export interface RecordingLogger extends Logger {
  entries: { level: "debug" | "info" | "warn" | "error"; args: unknown[] }[];
  messages(level?: "debug" | "info" | "warn" | "error"): string[];
}

export function recordingLogger(): RecordingLogger {
  const entries: RecordingLogger["entries"] = [];
  const at =
    (level: RecordingLogger["entries"][number]["level"]) =>
    (...args: unknown[]) => {
      entries.push({ level, args });
    };
  return {
    entries,
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    messages: (level) =>
      entries.filter((e) => !level || e.level === level).map((e) => String(e.args[0])),
  };
}

/** Let pending promise chains (fake fetch → JSON → callbacks) run to the end. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
