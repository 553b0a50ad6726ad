/** A websocket client that records every frame and waits for the ones a test expects. */
import type { Item } from "@chat-widget/protocol";
import WebSocket from "ws";

export class FramesClient {
  readonly frames: Record<string, unknown>[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data: WebSocket.RawData) => {
      this.frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
      this.wake();
    });
    socket.on("close", (code: number, reason: Buffer) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static open(url: string): Promise<FramesClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const client = new FramesClient(socket);
      socket.once("open", () => resolve(client));
      socket.once("error", reject);
      socket.once("unexpected-response", (_req, res) =>
        reject(new Error(`unexpected response ${res.statusCode}`)),
      );
    });
  }

  send(frame: unknown): void {
    this.socket.send(JSON.stringify(frame));
  }

  async subscribe(): Promise<Record<string, unknown>> {
    this.send({ topic: "aws/subscribe", content: { topics: ["aws/chat"] } });
    return this.waitFor((f) => f.topic === "aws/subscribe");
  }

  items(): Item[] {
    return this.frames
      .filter((f) => f.topic === "aws/chat" && typeof f.content === "string")
      .map((f) => JSON.parse(f.content as string) as Item);
  }

  async waitForItem(match: (item: Item) => boolean, ms = 5000): Promise<Item> {
    await this.waitFor(
      (f) => f.topic === "aws/chat" && match(JSON.parse(f.content as string) as Item),
      ms,
    );
    return this.items().find(match)!;
  }

  async waitFor(
    match: (f: Record<string, unknown>) => boolean,
    ms = 5000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.find(match);
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

  close(): void {
    this.socket.close();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
