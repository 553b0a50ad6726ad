import { chatFrame, ContentType, Topic, type Item } from "@chat-widget/protocol";
import type { WebSocket } from "ws";
import { isCentreMessage, type CentreMessage } from "../contact-centre/channel.js";
import { ContactFeed, type FeedReads } from "./contact-feed.js";

/** One open participant websocket in this process. */
export interface Connection {
  id: string;
  contactId: string;
  participantId: string;
  socket: WebSocket;
  topics: Set<string>;
}

/** Normal closure; the reason says why (chat ended, participant left, server shutdown). */
export const CLOSE_NORMAL = 1000;
export const CLOSE_GOING_AWAY = 1001;
/** The close reason every websocket gets when the server shuts down. */
export const SHUTDOWN_CLOSE_REASON = "server shutting down";

export interface SocketHubOptions {
  /** Where a contact's missed items are read again (see ContactFeed). */
  reads: FeedReads;
  /** Sends a frame (SocketWrites.send: one whose client stopped reading is cut). */
  send?: (socket: WebSocket, text: string) => void;
  /** Items read again from the store because the fan-out had not brought them. */
  onRepaired?: (count: number) => void;
  onError?: (error: unknown) => void;
}

interface ContactSockets {
  connections: Set<Connection>;
  feed: ContactFeed;
}

/**
 * This process's participant sockets by contact. Every fan-out message of the contact centre
 * comes through `handle`: items go to every subscribed socket of the contact, the sender's
 * included, each once and in the store's order (ContactFeed); close messages close one
 * participant's or the whole contact's sockets. After the fan-out was interrupted, `resync`
 * brings every contact's sockets up to date from the store.
 */
export class SocketHub {
  private readonly byContact = new Map<string, ContactSockets>();
  private readonly send: (socket: WebSocket, text: string) => void;

  constructor(private readonly o: SocketHubOptions) {
    this.send = o.send ?? ((socket, text) => socket.send(text));
  }

  /** A socket of the contact, whose last item's seq was `lastSeq` before it opened. */
  add(connection: Connection, lastSeq: number): void {
    const { contactId } = connection;
    let contact = this.byContact.get(contactId);
    if (!contact) {
      const feed = new ContactFeed(contactId, lastSeq, {
        reads: this.o.reads,
        deliver: (item, repaired) => this.deliver(contactId, item, repaired),
        onError: this.o.onError ?? (() => {}),
      });
      contact = { connections: new Set(), feed };
      this.byContact.set(contactId, contact);
    }
    contact.connections.add(connection);
  }

  remove(connection: Connection): void {
    const contact = this.byContact.get(connection.contactId);
    if (!contact) return;
    contact.connections.delete(connection);
    if (contact.connections.size > 0) return;
    contact.feed.close();
    this.byContact.delete(connection.contactId);
  }

  handle = (message: unknown): void => {
    if (!isCentreMessage(message)) return;
    const contact = this.byContact.get(message.contactId);
    if (!contact) return;
    if (message.kind === "close") return this.close(message);
    // Typing and streamed chunks are not stored: they have no place in the order.
    if (message.seq === undefined) this.deliver(message.contactId, message.item, false);
    else contact.feed.receive(message.seq, message.item);
  };

  /** The fan-out was interrupted: every contact with a socket here may be behind. */
  resync(): void {
    for (const contact of this.byContact.values()) contact.feed.resync();
  }

  private deliver(contactId: string, item: Item, repaired: boolean): void {
    const connections = this.byContact.get(contactId)?.connections;
    if (!connections) return;
    const frame = JSON.stringify(chatFrame(item));
    for (const c of connections) {
      if (c.topics.has(Topic.CHAT) && c.socket.readyState === c.socket.OPEN)
        this.send(c.socket, frame);
    }
    if (!repaired) return;
    this.o.onRepaired?.(1);
    // The close the fan-out lost with the item.
    if (item.ContentType === ContentType.CHAT_ENDED) {
      this.close({ kind: "close", contactId, reason: "chat ended" });
    } else if (item.ContentType === ContentType.PARTICIPANT_LEFT && item.ParticipantId) {
      const participantId = item.ParticipantId;
      this.close({ kind: "close", contactId, participantId, reason: "participant left" });
    }
  }

  private close(message: Extract<CentreMessage, { kind: "close" }>): void {
    for (const c of [...(this.byContact.get(message.contactId)?.connections ?? [])]) {
      if (message.participantId === undefined || message.participantId === c.participantId) {
        c.socket.close(CLOSE_NORMAL, message.reason);
        this.remove(c);
      }
    }
  }
}
