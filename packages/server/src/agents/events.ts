/**
 * Live updates for agent consoles: Server-Sent Events (`event: queue`, then
 * `event: queue-change`s, `event: chats`, `event: visitor` and `event: mention`), driven by the fan-out channel so a change made
 * by any process reaches every console. A queue change carries only what changed (issue 57:
 * the whole queue each time grew with its square), and a console too far behind is cut.
 * Every frame is computed and written one after another, so a console's last queue and chats
 * frames are always the newest (a slow read finishing after a quicker, newer one showed an old
 * queue); queue changes that arrive while one is waiting to be read are sent once.
 */
import type { ServerResponse } from "node:http";
import type { QueueChange, QueuedContact } from "@chat-widget/protocol";
import type { FanOut } from "../fanout/fanout.js";
import { SerialQueue } from "../fanout/serial-queue.js";
import { AGENT_CHANNEL, isAgentChannelMessage } from "./channel.js";

/** A comment line keeps proxies from closing an idle stream. */
export const SSE_KEEPALIVE_MS = 15_000;
/**
 * The most a stream may have written and not yet taken (bytes its client has not read): a
 * console that falls this far behind is cut, and reconnects to a fresh snapshot.
 */
export const MAX_SSE_BACKLOG_BYTES = 1024 * 1024;

interface Client {
  advisorId: string;
  res: ServerResponse;
  /** Its first queue snapshot was written: changes may follow. */
  ready: boolean;
}

export interface EventsHubOptions {
  fanout: FanOut;
  /** Current data for an event, computed once per change. */
  queue: () => Promise<QueuedContact[]>;
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
  private stopResume: (() => void) | null = null;
  private keepalive: ReturnType<typeof setInterval> | null = null;
  private readonly serial: SerialQueue;
  /** A queue frame is waiting its turn: another change needs no frame of its own. */
  private queueWaiting = false;
  /** The queue as every ready stream knows it: each entry's JSON by contact id. */
  private shown = new Map<string, string>();

  constructor(private readonly o: EventsHubOptions) {
    this.serial = new SerialQueue(o.onError);
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.o.fanout.subscribe(AGENT_CHANNEL, (message) => {
      if (!isAgentChannelMessage(message)) return;
      if (message.kind === "revoked") this.endFor(message.advisorId);
      else if (message.kind === "visitor") {
        const frame = sseFrame("visitor", { ContactId: message.contactId });
        void this.serial.run(async () => this.sendTo(message.advisorId, frame));
      } else if (message.kind === "mention") {
        const frame = sseFrame("mention", message.mention);
        void this.serial.run(async () => this.sendTo(message.advisorId, frame));
      } else if (message.kind === "chats") {
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
    // The fan-out was interrupted: the queue and every advisor's chats are read again.
    this.stopResume = this.o.fanout.onResume(() => {
      void this.serial.run(() => this.broadcastQueue());
      for (const id of this.advisorIds()) void this.serial.run(() => this.sendChats(id));
    });
    this.keepalive = (this.o.setInterval ?? setInterval)(() => {
      for (const c of this.clients) this.write(c, ": keepalive\n\n");
    }, SSE_KEEPALIVE_MS);
  }

  async stop(): Promise<void> {
    if (this.keepalive !== null) (this.o.clearInterval ?? clearInterval)(this.keepalive);
    this.keepalive = null;
    this.stopResume?.();
    this.stopResume = null;
    await this.unsubscribe?.();
    this.unsubscribe = null;
    for (const c of this.clients) c.res.end();
    this.clients.clear();
  }

  /**
   * Take over a response as an event stream: its first events are the whole queue (`queue`)
   * and the advisor's chats; then only the queue's changes (`queue-change`).
   */
  add(advisorId: string, res: ServerResponse): Promise<void> {
    const client: Client = { advisorId, res, ready: false };
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
        // The others hear what changed up to now, so the snapshot is every stream's base.
        const contacts = await this.o.queue();
        this.sendChange(contacts);
        this.write(client, sseFrame("queue", { Contacts: contacts }));
        client.ready = true;
        this.write(client, sseFrame("chats", await this.o.chats(advisorId)));
      } catch (error) {
        this.clients.delete(client);
        res.end();
        throw error;
      }
    });
  }

  /** The advisors with a stream open here. */
  advisorIds(): string[] {
    return [...new Set([...this.clients].map((c) => c.advisorId))];
  }

  /** The advisor's streams end now, before any later frame (their console must sign in again). */
  private endFor(advisorId: string): void {
    for (const c of this.clients) {
      if (c.advisorId !== advisorId) continue;
      this.clients.delete(c);
      c.res.end();
    }
  }

  get size(): number {
    return this.clients.size;
  }

  private async broadcastQueue(): Promise<void> {
    this.sendChange(await this.o.queue());
  }

  /** Each ready stream hears how `contacts` differs from the queue it knows; `shown` moves on. */
  private sendChange(contacts: QueuedContact[]): void {
    const next = new Map(contacts.map((c) => [c.ContactId, JSON.stringify(c)]));
    const change: QueueChange = {
      Added: contacts.filter((c) => this.shown.get(c.ContactId) !== next.get(c.ContactId)),
      Removed: [...this.shown.keys()].filter((id) => !next.has(id)),
    };
    this.shown = next;
    if (change.Added.length === 0 && change.Removed.length === 0) return;
    const frame = sseFrame("queue-change", change);
    for (const c of this.clients) if (c.ready) this.write(c, frame);
  }

  /**
   * The advisor's chats to their ready streams here, read only if they have one (the first
   * found is enough). Which streams get the frame is decided after the read: one may have
   * closed, been revoked or become ready meanwhile.
   */
  private async sendChats(advisorId: string): Promise<void> {
    if (this.mine(advisorId).next().done) return;
    this.sendTo(advisorId, sseFrame("chats", await this.o.chats(advisorId)));
  }

  /** The advisor's ready streams here, found as they are taken. */
  private *mine(advisorId: string): Generator<Client> {
    for (const c of this.clients) if (c.advisorId === advisorId && c.ready) yield c;
  }

  /** A frame to each of the advisor's ready streams here (listed first: `write` may cut one). */
  private sendTo(advisorId: string, frame: string): void {
    for (const c of [...this.mine(advisorId)]) this.write(c, frame);
  }

  /** Writes to one stream; one whose client fell MAX_SSE_BACKLOG_BYTES behind is cut. */
  private write(client: Client, text: string): void {
    client.res.write(text);
    if (client.res.writableLength > MAX_SSE_BACKLOG_BYTES) {
      this.clients.delete(client);
      client.res.destroy();
    }
  }
}
