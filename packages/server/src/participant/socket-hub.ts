import { chatFrame, Topic } from "@chat-widget/protocol";
import type { WebSocket } from "ws";
import { isCentreMessage, type CentreMessage } from "../contact-centre/channel.js";

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

/**
 * This process's participant sockets by contact. Every fan-out message of the contact centre
 * comes through `handle`: items go to every subscribed socket of the contact, the sender's
 * included; close messages close one participant's or the whole contact's sockets.
 */
export class SocketHub {
  private readonly byContact = new Map<string, Set<Connection>>();

  constructor(
    /** Sends a frame (SocketWrites.send: one whose client stopped reading is cut). */
    private readonly send: (socket: WebSocket, text: string) => void = (socket, text) =>
      socket.send(text),
  ) {}

  add(connection: Connection): void {
    let set = this.byContact.get(connection.contactId);
    if (!set) {
      set = new Set();
      this.byContact.set(connection.contactId, set);
    }
    set.add(connection);
  }

  remove(connection: Connection): void {
    const set = this.byContact.get(connection.contactId);
    if (!set) return;
    set.delete(connection);
    if (set.size === 0) this.byContact.delete(connection.contactId);
  }

  handle = (message: unknown): void => {
    if (!isCentreMessage(message)) return;
    const connections = [...(this.byContact.get(message.contactId) ?? [])];
    if (message.kind === "item") this.deliver(connections, message);
    else this.close(connections, message);
  };

  private deliver(
    connections: Connection[],
    message: Extract<CentreMessage, { kind: "item" }>,
  ): void {
    const frame = JSON.stringify(chatFrame(message.item));
    for (const c of connections) {
      if (c.topics.has(Topic.CHAT) && c.socket.readyState === c.socket.OPEN)
        this.send(c.socket, frame);
    }
  }

  private close(
    connections: Connection[],
    message: Extract<CentreMessage, { kind: "close" }>,
  ): void {
    for (const c of connections) {
      if (message.participantId === undefined || message.participantId === c.participantId) {
        c.socket.close(CLOSE_NORMAL, message.reason);
        this.remove(c);
      }
    }
  }
}
