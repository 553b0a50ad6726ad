/**
 * Live updates for agent consoles: Server-Sent Events (`event: queue`, `event: chats`),
 * driven by the fan-out channel so a change made by any process reaches every console.
 * Every frame is computed and written one after another, so a console's last queue and chats
 * frames are always the newest (a slow read finishing after a quicker, newer one showed an old
 * queue); queue changes that arrive while one is waiting to be read are sent once.
 */
import type { ServerResponse } from "node:http";
import type { FanOut } from "../fanout/fanout.js";
import { SerialQueue } from "../fanout/serial-queue.js";
import { AGENT_CHANNEL, isAgentChannelMessage } from "./channel.js";

/** A comment line keeps proxies from closing an idle stream. */
export const SSE_KEEPALIVE_MS = 15_000;

interface Client {
  advisorId: string;
  res: ServerResponse;
}

export interface EventsHubOptions {
  fanout: FanOut;
  /** Current data for an event, computed once per change. */
  queue: () => Promise<unknown>;
  chats: (advisorId: string) => Promise<unknown>;
  onError: (error: unknown) => void;
  setInterval?: typeof setInterval;
  clearInterval?: typeof clearInterval;
}

export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class AgentEventsHub {
  private readonly clients = new Set<Client>();
  private unsubscribe: (() => Promise<void>) | null = null;
  private keepalive: ReturnType<typeof setInterval> | null = null;
  private readonly serial: SerialQueue;
  /** A queue frame is waiting its turn: another change needs no frame of its own. */
  private queueWaiting = false;

  constructor(private readonly o: EventsHubOptions) {
    this.serial = new SerialQueue(o.onError);
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.o.fanout.subscribe(AGENT_CHANNEL, (message) => {
      if (!isAgentChannelMessage(message)) return;
      if (message.kind === "revoked") this.endFor(message.advisorId);
      else if (message.kind === "chats") {
        const { advisorId } = message;
        void this.serial.run(() => this.sendChats(advisorId));
      } else if (!this.queueWaiting) {
        this.queueWaiting = true;
        void this.serial.run(() => {
          this.queueWaiting = false;
          return this.broadcastQueue();
        });
      }
    });
    this.keepalive = (this.o.setInterval ?? setInterval)(() => {
      for (const c of this.clients) c.res.write(": keepalive\n\n");
    }, SSE_KEEPALIVE_MS);
  }

  async stop(): Promise<void> {
    if (this.keepalive !== null) (this.o.clearInterval ?? clearInterval)(this.keepalive);
    this.keepalive = null;
    await this.unsubscribe?.();
    this.unsubscribe = null;
    for (const c of this.clients) c.res.end();
    this.clients.clear();
  }

  /** Take over a response as an event stream; the first events carry the current state. */
  add(advisorId: string, res: ServerResponse): Promise<void> {
    const client: Client = { advisorId, res };
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.write("retry: 3000\n\n");
    this.clients.add(client);
    res.on("close", () => this.clients.delete(client));
    return this.serial.run(async () => {
      try {
        res.write(sseFrame("queue", await this.o.queue()));
        res.write(sseFrame("chats", await this.o.chats(advisorId)));
      } catch (error) {
        this.clients.delete(client);
        res.end();
        throw error;
      }
    });
  }

  /** The advisor's streams end now, before any later frame (their console must sign in again). */
  private endFor(advisorId: string): void {
    for (const c of this.clients) {
      if (c.advisorId !== advisorId) continue;
      this.clients.delete(c);
      c.res.end();
    }
  }

  /** The advisors with a stream open here. */
  advisorIds(): string[] {
    return [...new Set([...this.clients].map((c) => c.advisorId))];
  }

  get size(): number {
    return this.clients.size;
  }

  private async broadcastQueue(): Promise<void> {
    if (this.clients.size === 0) return;
    const frame = sseFrame("queue", await this.o.queue());
    for (const c of this.clients) c.res.write(frame);
  }

  private async sendChats(advisorId: string): Promise<void> {
    const mine = [...this.clients].filter((c) => c.advisorId === advisorId);
    if (mine.length === 0) return;
    const frame = sseFrame("chats", await this.o.chats(advisorId));
    for (const c of mine) c.res.write(frame);
  }
}
