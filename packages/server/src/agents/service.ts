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
  type AcceptResponse,
  type ActiveChat,
  type AdvisorAvailability,
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
  createSession,
  deleteSession,
  findAdvisorByUsername,
  findSessionAdvisor,
  lockAdvisor,
  publicAdvisor,
  setAvailability,
  type AdvisorRecord,
} from "./advisors-repo.js";
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
  listWaiting,
  release,
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

  async signOut(token: string): Promise<void> {
    await deleteSession(this.o.db, token);
    this.o.onAdvisorsChanged?.();
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

  async queue(): Promise<QueuedContact[]> {
    const waiting = await listWaiting(this.o.db);
    const out: QueuedContact[] = [];
    for (const w of waiting) {
      const details = await this.details(w.contactId);
      if (!details) continue;
      out.push({ ContactId: w.contactId, Queue: w.queue, QueuedAt: w.queuedAt, ...details });
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
    const participantId = randomUUID();
    const participantToken = await this.tokens.tokenFor(participantId);
    try {
      await this.o.centre.addParticipant(contactId, "AGENT", advisor.Name, {
        participantId,
        participantToken,
      });
    } catch (error) {
      await release(this.o.db, contactId);
      if (isServiceError(error) && error.type === "AccessDeniedException") {
        await endAgentContact(this.o.db, { contactId }, this.now());
        await this.queueChanged();
        throw Errors.conflict(`Contact ${contactId} has ended.`);
      }
      throw error;
    }
    await activate(this.o.db, contactId, participantId);
    await this.queueChanged();
    await this.publish({ kind: "chats", advisorId: advisor.AdvisorId });
    const details = await this.details(contactId);
    return {
      ContactId: contactId,
      InitialContactId: details?.InitialContactId ?? contactId,
      ParticipantId: participantId,
      ParticipantToken: participantToken,
      Attributes: details?.Attributes ?? {},
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
      CustomerName: contact.attributes.customerName ?? customer?.displayName ?? "",
    };
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
