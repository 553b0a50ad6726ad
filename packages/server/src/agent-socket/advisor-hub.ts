/**
 * This process's advisor websockets. Each carries the `aws/chat` items of every contact its
 * advisor holds (an AGENT participant accepted through the agent API), so the console's AGENT
 * sessions share one websocket, as Amazon Connect's agents do (docs/product.md §4, docs/protocol.md §5.2).
 *
 * Which contacts an advisor holds (or is taking) comes from the agent API's records: read
 * when a socket opens (in turn with the fan-out, so a chat accepted while the socket was
 * opening is not missed, and before its subscription is answered), re-read when the agent
 * channel says the advisor's chats changed, and looked up when an AGENT joins a contact nobody
 * here follows yet (so the first items of a newly accepted chat are not missed). Fan-out
 * messages are handled one at a time, in order. Each followed contact's stored items pass once
 * (by seq); after the fan-out was interrupted (`resync`) the followed chats are read again and
 * each followed contact's items after the last one passed are read from the store.
 */
import { chatFrame, ContentType, ParticipantRole, Topic, type Item } from "@chat-widget/protocol";
import { isAgentChannelMessage } from "../agents/channel.js";
import { findAgentContact, listFollowed } from "../agents/queue-repo.js";
import { isCentreMessage } from "../contact-centre/channel.js";
import { findLastSeqs } from "../contact-centre/contacts-repo.js";
import { readPage } from "../contact-centre/items-repo.js";
import { SerialQueue } from "../fanout/serial-queue.js";
import type { WebSocket } from "ws";
import type { Db } from "../store/db.js";
import type { FrameTarget } from "../participant/frames.js";

/** The close code of an advisor websocket whose advisor was disabled or signed out. */
export const ADVISOR_REVOKED_CLOSE = 4001;

export interface AdvisorConnection extends FrameTarget {
  advisorId: string;
  /** Contacts whose items this socket receives. */
  contacts: Set<string>;
}

/** Items one read of a followed contact's missed items brings. */
export const RESYNC_PAGE = 200;

export class AdvisorSocketHub {
  private readonly connections = new Set<AdvisorConnection>();
  /** Each followed contact's last stored item passed here (or stored before it was followed). */
  private readonly passed = new Map<string, number>();
  private readonly serial: SerialQueue;

  constructor(
    private readonly db: Db,
    onError: (error: unknown) => void,
    /** Sends a frame (SocketWrites.send: one whose client stopped reading is cut). */
    private readonly send: (socket: WebSocket, text: string) => void = (socket, text) =>
      socket.send(text),
    /** Items read from the store after the fan-out was interrupted (metrics). */
    private readonly onRepaired: (count: number) => void = () => {},
  ) {
    this.serial = new SerialQueue(onError);
  }

  /** The contacts an advisor holds or is taking now, each with where its items stand. */
  private async heldContacts(advisorId: string): Promise<Set<string>> {
    const held = new Set(await listFollowed(this.db, advisorId));
    const unknown = [...held].filter((id) => !this.passed.has(id));
    if (unknown.length === 0) return held;
    const seqs = await findLastSeqs(this.db, unknown);
    for (const id of unknown) this.passed.set(id, seqs.get(id) ?? 0);
    return held;
  }

  /**
   * A socket opened: from now on it follows its advisor's chats. Their list is read in turn with
   * the fan-out messages, so one that joined or changed the advisor's chats before the socket was
   * here is not missed; resolves once it is read. A socket whose list cannot be read is closed
   * (1011), and the console opens another.
   */
  add(connection: AdvisorConnection): Promise<void> {
    this.connections.add(connection);
    return this.serial.run(async () => {
      try {
        for (const id of await this.heldContacts(connection.advisorId)) connection.contacts.add(id);
      } catch (error) {
        connection.socket.close(1011, "try again");
        throw error;
      }
    });
  }

  remove(connection: AdvisorConnection): void {
    this.connections.delete(connection);
    for (const id of connection.contacts) if (!this.anyFollows(id)) this.passed.delete(id);
  }

  /**
   * The fan-out was interrupted: in turn, every advisor's chats are read again, and each
   * followed contact's items after the last one passed here are read and passed.
   */
  resync(): void {
    void this.serial.run(async () => {
      for (const advisorId of this.advisorIds()) {
        const held = await this.heldContacts(advisorId);
        for (const c of this.forAdvisor(advisorId)) c.contacts = new Set(held);
      }
      this.forgetUnfollowed();
      for (const contactId of [...this.passed.keys()]) await this.readMissed(contactId);
    });
  }

  private forgetUnfollowed(): void {
    for (const id of this.passed.keys()) if (!this.anyFollows(id)) this.passed.delete(id);
  }

  private async readMissed(contactId: string): Promise<void> {
    for (;;) {
      const after = this.passed.get(contactId);
      if (after === undefined) return;
      const from = { seq: after, inclusive: false };
      const page = { contactId, direction: "FORWARD", from, limit: RESYNC_PAGE } as const;
      const rows = await readPage(this.db, page);
      for (const row of rows) {
        if (row.seq > (this.passed.get(contactId) ?? row.seq)) this.onRepaired(1);
        this.pass(contactId, row.item, row.seq);
      }
      if (rows.length < RESYNC_PAGE) return;
    }
  }

  /** The advisors with a websocket open here. */
  advisorIds(): string[] {
    return [...new Set([...this.connections].map((c) => c.advisorId))];
  }

  get size(): number {
    return this.connections.size;
  }

  /** Fan-out handler of the contact centre's channel. */
  handleCentre = (message: unknown): void => {
    if (!isCentreMessage(message) || message.kind !== "item") return;
    const { contactId, item, seq } = message;
    // The console shows a streamed answer once, complete (docs/decisions.md #12).
    if (item.MessageMetadata?.MessageCompleted === false) return;
    const follows = () => isAgentJoined(item) && !this.anyFollows(contactId);
    // Most items (every message) need no read: with nothing queued before them, handled now.
    if (this.serial.empty && !follows()) return this.pass(contactId, item, seq);
    void this.serial.run(async () => {
      if (follows()) await this.follow(contactId, seq);
      this.pass(contactId, item, seq);
    });
  };

  /** Delivers an item of a followed contact, once (a stored one passed before is dropped). */
  private pass(contactId: string, item: Item, seq: number | undefined): void {
    const passed = this.passed.get(contactId);
    if (seq !== undefined && passed !== undefined) {
      if (seq <= passed) return;
      this.passed.set(contactId, seq);
    }
    this.deliver(contactId, item);
    if (item.ContentType === ContentType.CHAT_ENDED) this.unfollow(contactId);
  }

  /** Fan-out handler of the agent API's channel: an advisor's chats changed. */
  handleAgent = (message: unknown): void => {
    if (!isAgentChannelMessage(message) || message.kind === "queue") return;
    const { advisorId } = message;
    if (message.kind === "revoked") return this.closeFor(advisorId);
    if (!this.forAdvisor(advisorId).length) return;
    void this.serial.run(async () => {
      const held = await this.heldContacts(advisorId);
      for (const c of this.forAdvisor(advisorId)) c.contacts = new Set(held);
      this.forgetUnfollowed();
    });
  };

  /**
   * The advisor was revoked: their sockets close now, not in turn, so no item handled after this
   * word reaches them (the console must sign in again).
   */
  private closeFor(advisorId: string): void {
    for (const c of this.forAdvisor(advisorId)) {
      this.connections.delete(c);
      c.contacts.clear();
      c.socket.close(ADVISOR_REVOKED_CLOSE, "signed out");
    }
  }

  /** Resolves once every fan-out message received so far has been handled. */
  idle(): Promise<void> {
    return this.serial.idle();
  }

  private forAdvisor(advisorId: string): AdvisorConnection[] {
    return [...this.connections].filter((c) => c.advisorId === advisorId);
  }

  private anyFollows(contactId: string): boolean {
    for (const c of this.connections) if (c.contacts.has(contactId)) return true;
    return false;
  }

  /** An advisor is joining the contact (its item `seq`): their sockets start following it. */
  private async follow(contactId: string, seq: number | undefined): Promise<void> {
    if (this.connections.size === 0) return;
    const record = await findAgentContact(this.db, contactId);
    if (!record?.advisorId || record.status === "ended" || record.status === "waiting") return;
    const mine = this.forAdvisor(record.advisorId);
    for (const c of mine) c.contacts.add(contactId);
    if (mine.length > 0 && seq !== undefined && !this.passed.has(contactId)) {
      this.passed.set(contactId, seq - 1);
    }
  }

  private unfollow(contactId: string): void {
    for (const c of this.connections) c.contacts.delete(contactId);
    this.passed.delete(contactId);
  }

  private deliver(contactId: string, item: Item): void {
    let frame: string | null = null;
    for (const c of this.connections) {
      if (!c.contacts.has(contactId) || !c.topics.has(Topic.CHAT)) continue;
      if (c.socket.readyState !== c.socket.OPEN) continue;
      frame ??= JSON.stringify(chatFrame(item));
      this.send(c.socket, frame);
    }
  }
}

const isAgentJoined = (item: Item): boolean =>
  item.ContentType === ContentType.PARTICIPANT_JOINED &&
  item.ParticipantRole === ParticipantRole.AGENT;
