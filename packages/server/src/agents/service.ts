/**
 * The agent API's rules: sign-in, availability, the queue (oldest first), accepting a
 * contact (an AGENT participant joins under the advisor's name; at most 10 chats at once),
 * connection tokens for the console's AGENT chat session, ending a contact.
 */
import { randomUUID } from "node:crypto";
import {
  ContentType,
  MAX_CONCURRENT_CHATS,
  ParticipantRole,
  ORDER_NUMBER_ATTRIBUTE,
  QUEUE_TEXT_MAX,
  type AcceptResponse,
  type ActiveChat,
  type AdvisorAvailability,
  type AttributeSource,
  type ConnectionTokenResponse,
  type Item,
  type QueuedContact,
  type SignInResponse,
} from "@chat-widget/protocol";
import { isoAt, type Clock } from "../clock.js";
import type { Contact, ContactCentre } from "../contact-centre/types.js";
import { newToken } from "../contact-centre/tokens.js";
import { Errors, isServiceError } from "../errors.js";
import type { FanOut } from "../fanout/fanout.js";
import type { Db } from "../store/db.js";
import {
  advisorSignedIn,
  createSession,
  deleteSession,
  findAdvisorByUsername,
  findSessionAdvisor,
  lockAdvisor,
  publicAdvisor,
  setAvailability,
  type AdvisorRecord,
} from "./advisors-repo.js";
import { recordAdvisor } from "../history/conversations-repo.js";
import { AdvisorTokens } from "./advisor-tokens.js";
import { AGENT_CHANNEL, type AgentChannelMessage } from "./channel.js";
import { verifyPassword } from "./password.js";
import {
  activate,
  claim,
  countHeld,
  endAgentContact,
  enqueue,
  findAgentContact,
  listActive,
  listFollowed,
  listWaiting,
  release,
  requeueContact,
  type AgentContact,
} from "./queue-repo.js";

/** How long an advisor's sign-in lasts. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Compared against when the username is unknown, so both failures take as long. */
const DUMMY_HASH =
  "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

export interface AgentServiceOptions {
  db: Db;
  centre: ContactCentre;
  fanout: FanOut;
  clock: Clock;
  onError: (error: unknown) => void;
  /** The queue changed (`joined`: the contact just queued): waiting visitors hear their places. */
  onQueueChanged?: (joined?: string) => Promise<void>;
  /** An advisor signed in or out or set their availability (the flow's cached answer goes). */
  onAdvisorsChanged?: () => void;
}

export class AgentService {
  private readonly tokens: AdvisorTokens;

  constructor(private readonly o: AgentServiceOptions) {
    this.tokens = new AdvisorTokens(o.db);
  }

  private now(): string {
    return isoAt(this.o.clock.now());
  }

  async signIn(username: string, password: string): Promise<SignInResponse> {
    const advisor = await findAdvisorByUsername(this.o.db, username);
    const ok = await verifyPassword(password, advisor?.passwordHash ?? DUMMY_HASH);
    if (!advisor || !ok) throw Errors.accessDenied("Wrong username or password.");
    if (advisor.disabled) throw Errors.accessDenied("This advisor account is disabled.");
    const token = newToken();
    const now = this.o.clock.now();
    const expiresAt = isoAt(now + SESSION_TTL_MS);
    await createSession(this.o.db, token, advisor.AdvisorId, isoAt(now), expiresAt);
    this.o.onAdvisorsChanged?.();
    return { Token: token, ExpiresAt: expiresAt, Advisor: publicAdvisor(advisor) };
  }

  /** Sign this session out; signed out everywhere, the advisor's chats go back to the queue. */
  async signOut(advisorId: string, token: string): Promise<void> {
    await deleteSession(this.o.db, token);
    this.o.onAdvisorsChanged?.();
    if (!(await advisorSignedIn(this.o.db, advisorId, this.now()))) await this.revoke(advisorId);
  }

  /** The signed-in advisor of a bearer token. */
  async authenticate(token: string | undefined): Promise<AdvisorRecord> {
    if (!token)
      throw Errors.accessDenied("Sign in first: the Authorization header needs a Bearer token.");
    const advisor = await findSessionAdvisor(this.o.db, token, this.now());
    if (!advisor)
      throw Errors.accessDenied("The session has expired or is not valid. Sign in again.");
    return advisor;
  }

  async setAvailability(
    advisor: AdvisorRecord,
    availability: AdvisorAvailability,
  ): Promise<AdvisorRecord> {
    await setAvailability(this.o.db, advisor.AdvisorId, availability);
    this.o.onAdvisorsChanged?.();
    return { ...advisor, Availability: availability };
  }

  /** The waiting contacts, oldest first, each as the queue shows it (QueuedContact). */
  async queue(): Promise<QueuedContact[]> {
    const waiting = await listWaiting(this.o.db);
    const out: QueuedContact[] = [];
    const cut = (text: string) => [...text].slice(0, QUEUE_TEXT_MAX).join("");
    for (const w of waiting) {
      const details = await this.details(w.contactId);
      if (!details) continue;
      const order = details.Attributes[ORDER_NUMBER_ATTRIBUTE]?.trim();
      out.push({
        ContactId: w.contactId,
        Queue: w.queue,
        QueuedAt: w.queuedAt,
        CustomerName: cut(details.CustomerName),
        ...(order ? { OrderNumber: cut(order) } : {}),
      });
    }
    return out;
  }

  async chats(advisorId: string): Promise<ActiveChat[]> {
    const out: ActiveChat[] = [];
    for (const c of await listActive(this.o.db, advisorId)) {
      const chat = await this.chatDetails(c);
      if (chat) out.push({ ...chat, Queue: c.queue, AcceptedAt: c.acceptedAt ?? c.queuedAt });
    }
    return out;
  }

  /** Route a contact to a queue (the contact flow's queue step). */
  async enqueue(contactId: string, queue: string): Promise<void> {
    if (await enqueue(this.o.db, contactId, queue, this.now())) await this.queueChanged(contactId);
  }

  async accept(advisor: AdvisorRecord, contactId: string): Promise<AcceptResponse> {
    const existing = await findAgentContact(this.o.db, contactId);
    if (!existing)
      throw Errors.notFound(`Contact ${contactId} is not in a queue.`, contactId, "CONTACT");
    if (existing.status === "active" && existing.advisorId === advisor.AdvisorId) {
      const again = await this.chatDetails(existing);
      if (again) return again;
    }
    await this.o.db.transaction(async (tx) => {
      const locked = await lockAdvisor(tx, advisor.AdvisorId);
      if (!locked) throw Errors.accessDenied();
      if (locked.Availability !== "Available") {
        throw Errors.conflict("Set your availability to Available to accept chats.");
      }
      const limit = Math.min(locked.MaxConcurrentChats, MAX_CONCURRENT_CHATS);
      if ((await countHeld(tx, advisor.AdvisorId)) >= limit) {
        throw Errors.conflict(
          `You already have ${limit} active chats, the most an advisor can hold at once.`,
        );
      }
      if (!(await claim(tx, contactId, advisor.AdvisorId, this.now()))) {
        throw Errors.conflict(
          existing.status === "ended"
            ? `Contact ${contactId} has ended.`
            : `Contact ${contactId} has already been accepted.`,
        );
      }
    });
    return this.joinClaimed(advisor, contactId, true);
  }

  /**
   * The advisor's AGENT participant joins a chat claimed for them (status 'accepting': by
   * accept, or by a transfer to them); a chat that ended meanwhile is a 409, and one whose
   * participant could not be added goes back to waiting.
   */
  async joinClaimed(
    advisor: AdvisorRecord,
    contactId: string,
    fromQueue: boolean,
  ): Promise<AcceptResponse> {
    const participantId = randomUUID();
    const participantToken = await this.tokens.tokenFor(participantId);
    try {
      await this.o.centre.addParticipant(contactId, "AGENT", advisor.Name, {
        participantId,
        participantToken,
      });
    } catch (error) {
      await release(this.o.db, contactId);
      // A transferred chat now waits in its queue: consoles hear of it.
      if (!fromQueue) await this.queueChanged(contactId);
      if (isServiceError(error) && error.type === "AccessDeniedException") {
        await endAgentContact(this.o.db, { contactId }, this.now());
        await this.queueChanged();
        throw Errors.conflict(`Contact ${contactId} has ended.`);
      }
      throw error;
    }
    // The advisor is in the chat (the visitor sees them join): they took part, whatever comes
    // next, and the chat's history row, built as it ends, must say so.
    await recordAdvisor(this.o.db, contactId, advisor.AdvisorId, advisor.Name, this.now());
    if (!(await activate(this.o.db, contactId, participantId))) {
      // The chat went back to its queue while the advisor joined (they were revoked).
      await this.leave(contactId, participantId);
      throw Errors.conflict(
        fromQueue
          ? `Contact ${contactId} is no longer yours to accept.`
          : `${advisor.Name} could not take the chat: it waits in its queue.`,
      );
    }
    if (fromQueue) await this.queueChanged();
    await this.chatsChanged(advisor.AdvisorId);
    const details = await this.details(contactId);
    return {
      ContactId: contactId,
      InitialContactId: details?.InitialContactId ?? contactId,
      ParticipantId: participantId,
      ParticipantToken: participantToken,
      Attributes: details?.Attributes ?? {},
      AttributeSources: details?.AttributeSources ?? {},
      CustomerName: details?.CustomerName ?? "",
    };
  }

  async connectionToken(
    advisor: AdvisorRecord,
    contactId: string,
  ): Promise<ConnectionTokenResponse> {
    const chat = await this.requireOwnChat(advisor, contactId);
    const grant = await this.o.centre.issueConnectionToken(contactId, chat.participantId!);
    return {
      chatTokenTransport: { participantToken: grant.connectionToken, expiry: grant.expiry },
    };
  }

  /**
   * A chat its advisor holds goes back to its queue, waiting in its old place (issue 57; the
   * transfer and routing issues reuse it): the advisor's AGENT participant leaves (the visitor
   * sees "… has left the chat"; its tokens stop working in every process), consoles hear the
   * queue, and the visitor is told their place again. False when nobody held it (`holder`,
   * when given: a chat handed on meanwhile stays with its new advisor).
   */
  async requeue(contactId: string, holder?: string): Promise<boolean> {
    const held = await requeueContact(this.o.db, contactId, this.now(), holder);
    if (!held) return false;
    if (held.participantId) await this.leave(contactId, held.participantId);
    await this.released(contactId, held.advisorId);
    return true;
  }

  /**
   * A chat claimed for an advisor who never joined it went back to waiting (a transfer that
   * failed half-way, a stale claim swept): consoles hear the queue and the advisor's chats.
   */
  async released(contactId: string, advisorId: string | null): Promise<void> {
    await this.queueChanged(contactId);
    if (advisorId) await this.chatsChanged(advisorId);
  }

  /**
   * The advisor was disabled, signed out or had their password reset: every process closes
   * their advisor websockets and event streams first, then each chat they hold goes back to
   * its queue. Any process may run it; each chat is requeued once.
   */
  async revoke(advisorId: string): Promise<void> {
    await this.publish({ kind: "revoked", advisorId });
    for (const contactId of await listFollowed(this.o.db, advisorId))
      await this.requeue(contactId, advisorId);
  }

  /** The AGENT participant leaves the chat; one that left already, or a chat that ended, is fine. */
  async leave(contactId: string, participantId: string): Promise<void> {
    try {
      await this.o.centre.disconnectParticipant(contactId, participantId);
    } catch (error) {
      if (!isServiceError(error) || error.type !== "AccessDeniedException") throw error;
    }
  }

  async end(advisor: AdvisorRecord, contactId: string): Promise<void> {
    await this.requireOwnChat(advisor, contactId);
    await this.o.centre.endContact(contactId);
  }

  /**
   * Items of every contact: a chat that ends, or an advisor who leaves, frees the advisor. Any
   * other item (every message) returns at once, without a promise.
   */
  onItem(contact: Contact, item: Item): Promise<void> | undefined {
    let where: { contactId: string } | { participantId: string } | null = null;
    if (item.ContentType === ContentType.CHAT_ENDED) where = { contactId: contact.contactId };
    else if (
      item.ContentType === ContentType.PARTICIPANT_LEFT &&
      item.ParticipantRole === ParticipantRole.AGENT &&
      item.ParticipantId
    ) {
      where = { participantId: item.ParticipantId };
    }
    return where ? this.free(where) : undefined;
  }

  private async free(where: { contactId: string } | { participantId: string }): Promise<void> {
    const ended = await endAgentContact(this.o.db, where, this.now());
    if (!ended) return;
    if (ended.wasWaiting) await this.queueChanged();
    if (ended.advisorId) await this.publish({ kind: "chats", advisorId: ended.advisorId });
  }

  private async requireOwnChat(advisor: AdvisorRecord, contactId: string): Promise<AgentContact> {
    const chat = await findAgentContact(this.o.db, contactId);
    if (!chat || chat.advisorId !== advisor.AdvisorId || chat.participantId === null) {
      throw Errors.notFound(`Contact ${contactId} is not one of your chats.`, contactId, "CONTACT");
    }
    if (chat.status !== "active") throw Errors.conflict(`Contact ${contactId} has ended.`);
    return chat;
  }

  private async chatDetails(c: AgentContact): Promise<AcceptResponse | null> {
    const details = await this.details(c.contactId);
    if (!details || c.participantId === null) return null;
    return {
      ContactId: c.contactId,
      ParticipantId: c.participantId,
      ParticipantToken: await this.tokens.tokenFor(c.participantId),
      ...details,
    };
  }

  private async details(contactId: string): Promise<{
    InitialContactId: string;
    Attributes: Record<string, string>;
    AttributeSources: Record<string, AttributeSource>;
    CustomerName: string;
  } | null> {
    const contact = await this.o.centre.getContact(contactId);
    if (!contact) return null;
    const customer = (await this.o.centre.getParticipants(contactId)).find(
      (p) => p.role === "CUSTOMER",
    );
    return {
      InitialContactId: contact.initialContactId,
      Attributes: contact.attributes,
      AttributeSources: contact.attributeSources ?? {},
      CustomerName: contact.attributes.customerName ?? customer?.displayName ?? "",
    };
  }

  /** The advisor's consoles read their chats again. */
  async chatsChanged(advisorId: string): Promise<void> {
    await this.publish({ kind: "chats", advisorId });
  }

  /** Advisors' consoles hear of a change in the queue, and waiting visitors of their places. */
  private async queueChanged(joined?: string): Promise<void> {
    await this.publish({ kind: "queue" });
    await this.o.onQueueChanged?.(joined);
  }

  private async publish(message: AgentChannelMessage): Promise<void> {
    try {
      await this.o.fanout.publish(AGENT_CHANNEL, message);
    } catch (error) {
      this.o.onError(error);
    }
  }
}
