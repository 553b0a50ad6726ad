import { ParticipantPath, type Item } from "@chat-widget/protocol";
import WebSocket from "ws";

export interface Reply<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** A raw participant-service call, with chatjs's dummy SigV4 headers. */
export async function call<T = Record<string, unknown>>(
  base: string,
  path: string,
  token: string | null,
  body?: unknown,
  init: { method?: string; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = {
    "x-amz-date": "20260115T100000Z",
    "x-amz-user-agent": "aws-sdk-js/3.716.0 AmazonConnect-ChatJS/5.0.0",
    authorization:
      "AWS4-HMAC-SHA256 Credential=/20260115/us-west-2/execute-api/aws4_request, SignedHeaders=host, Signature=00",
    ...init.headers,
  };
  if (token !== null) headers["x-amz-bearer"] = token;
  const payload = init.rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined && !headers["content-type"])
    headers["content-type"] = "application/json";
  const response = await fetch(base + path, {
    method: init.method ?? "POST",
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = { raw: text };
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export interface Connected {
  connectionToken: string;
  websocketUrl: string;
  raw: Record<string, unknown>;
}

/** CreateParticipantConnection with both types, as chatjs does. */
export async function connectParticipant(
  base: string,
  participantToken: string,
): Promise<Connected> {
  const r = await call<{
    Websocket: { Url: string };
    ConnectionCredentials: { ConnectionToken: string };
  }>(base, ParticipantPath.CreateParticipantConnection, participantToken, {
    Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"],
  });
  if (r.status !== 200) throw new Error(`connection failed: ${r.status} ${JSON.stringify(r.body)}`);
  return {
    connectionToken: r.body.ConnectionCredentials.ConnectionToken,
    websocketUrl: r.body.Websocket.Url,
    raw: r.body as unknown as Record<string, unknown>,
  };
}

/** A websocket client that records every frame and waits for the ones a test expects. */
export class FrameClient {
  readonly frames: Record<string, unknown>[] = [];
  readonly raw: string[] = [];
  private waiters: (() => void)[] = [];
  closed: { code: number; reason: string } | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data) => {
      const text = data.toString();
      this.raw.push(text);
      try {
        this.frames.push(JSON.parse(text) as Record<string, unknown>);
      } catch {
        this.frames.push({ unparsable: text });
      }
      this.wake();
    });
    socket.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<FrameClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, options);
      const client = new FrameClient(socket);
      socket.once("open", () => resolve(client));
      socket.once("error", reject);
      socket.once("unexpected-response", (_req, res) =>
        reject(new Error(`unexpected response ${res.statusCode}`)),
      );
    });
  }

  /** Open, subscribe to aws/chat and wait for the success answer. */
  static async subscribed(url: string): Promise<FrameClient> {
    const client = await FrameClient.open(url);
    client.send({ topic: "aws/subscribe", content: { topics: ["aws/chat"] } });
    await client.waitFor((f) => f.topic === "aws/subscribe");
    return client;
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** Resolves with the first frame (from index `from`) matching, or rejects after `ms`. */
  async waitFor(
    match: (f: Record<string, unknown>) => boolean,
    { from = 0, ms = 5000 }: { from?: number; ms?: number } = {},
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching frame; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The items of the aws/chat frames received so far. */
  items(): Item[] {
    return this.frames
      .filter((f) => f.topic === "aws/chat" && typeof f.content === "string")
      .map((f) => JSON.parse(f.content as string) as Item);
  }

  async waitForItem(match: (item: Item) => boolean, ms = 5000): Promise<Item> {
    await this.waitFor(
      (f) =>
        f.topic === "aws/chat" &&
        typeof f.content === "string" &&
        match(JSON.parse(f.content) as Item),
      { ms },
    );
    return this.items().find(match)!;
  }

  async waitForClose(ms = 5000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + ms;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error("socket did not close");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed;
  }

  close(): void {
    this.socket.close();
  }
}
