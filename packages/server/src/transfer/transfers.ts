/**
 * Transfer (issue 60): the advisor holding a live chat hands it to another advisor, or back
 * to its queue, with an optional note. In this order, so that every session sees it so: the
 * chat is claimed for the next advisor (or put back in its queue) in the store; the note is
 * stored with it; the handing advisor's participant sends `transfer.succeeded` (their
 * session, ours or chatjs's, ends on it) and leaves, its token refused from then on; the next
 * advisor's participant joins and they read the whole history.
 */
import { randomUUID } from "node:crypto";
import {
  ContentType,
  MAX_CONCURRENT_CHATS,
  type TransferRequest,
  type TransferResponse,
  type TransferTargetsResponse,
} from "@chat-widget/protocol";
import {
  advisorSignedIn,
  findAdvisor,
  lockAdvisor,
  type AdvisorRecord,
} from "../agents/advisors-repo.js";
import { heldChat } from "../agents/chat-access.js";
import { countHeld, findAgentContact, release } from "../agents/queue-repo.js";
import type { AgentService } from "../agents/service.js";
import { isoAt, type Clock } from "../clock.js";
import type { ContactCentre } from "../contact-centre/types.js";
import { Errors } from "../errors.js";
import { countNotes, insertNote } from "../notes/notes-repo.js";
import { MAX_NOTES_PER_CONTACT } from "../notes/routes.js";
import type { Db } from "../store/db.js";
import { handOver, listTargets } from "./transfer-repo.js";

export interface TransfersOptions {
  db: Db;
  centre: ContactCentre;
  agents: AgentService;
  clock: Clock;
}

export class Transfers {
  constructor(private readonly o: TransfersOptions) {}

  private now(): string {
    return isoAt(this.o.clock.now());
  }

  async targets(advisor: AdvisorRecord, contactId: string): Promise<TransferTargetsResponse> {
    await heldChat(this.o.db, this.o.centre, advisor, contactId);
    const held = await findAgentContact(this.o.db, contactId);
    return {
      Advisors: await listTargets(this.o.db, advisor.AdvisorId, this.now()),
      Queue: held?.queue ?? "",
    };
  }

  async transfer(
    advisor: AdvisorRecord,
    contactId: string,
    request: TransferRequest,
  ): Promise<TransferResponse> {
    const toQueue = request.Queue === true;
    if (toQueue === (request.AdvisorId !== undefined))
      throw Errors.validation("Transfer to an advisor (AdvisorId) or to the queue (Queue: true).");
    await heldChat(this.o.db, this.o.centre, advisor, contactId);
    const note = request.Note?.trim() ? request.Note : null;
    if (note && (await countNotes(this.o.db, contactId)) >= MAX_NOTES_PER_CONTACT)
      throw Errors.conflict(`This chat has ${MAX_NOTES_PER_CONTACT} notes, the most it keeps.`);
    return toQueue
      ? this.toQueue(advisor, contactId, note)
      : this.toAdvisor(advisor, contactId, request.AdvisorId!, note);
  }

  private async toAdvisor(
    from: AdvisorRecord,
    contactId: string,
    toId: string,
    note: string | null,
  ): Promise<TransferResponse> {
    if (toId === from.AdvisorId) throw Errors.validation("You hold this chat already.");
    const to = await findAdvisor(this.o.db, toId);
    if (!to || to.disabled)
      throw Errors.notFound(`Advisor ${toId} was not found.`, toId, "ADVISOR");
    const handing = await this.o.db.transaction(async (tx) => {
      const locked = await lockAdvisor(tx, toId);
      if (locked?.Availability !== "Available" || !(await advisorSignedIn(tx, toId, this.now())))
        throw Errors.conflict(`${to.Name} is not available to take chats.`);
      const limit = Math.min(locked.MaxConcurrentChats, MAX_CONCURRENT_CHATS);
      if ((await countHeld(tx, toId)) >= limit)
        throw Errors.conflict(`${to.Name} has ${limit} chats, the most they take at once.`);
      const participantId = await handOver(tx, contactId, from.AdvisorId, toId, this.now());
      if (!participantId)
        throw Errors.notFound(
          `Contact ${contactId} is not one of your chats.`,
          contactId,
          "CONTACT",
        );
      if (note) await this.storeNote(tx, from, contactId, `Transferred to ${to.Name}: ${note}`);
      return participantId;
    });
    try {
      await this.announce(contactId, handing);
      await this.o.agents.leave(contactId, handing);
    } catch (error) {
      await this.putBack(contactId, handing, from.AdvisorId);
      throw error;
    }
    await this.o.agents.chatsChanged(from.AdvisorId);
    // (A participant that cannot be added puts the chat back in its queue there.)
    await this.o.agents.joinClaimed(to, contactId, false);
    return { ContactId: contactId, AdvisorId: to.AdvisorId, AdvisorName: to.Name };
  }

  private async toQueue(
    from: AdvisorRecord,
    contactId: string,
    note: string | null,
  ): Promise<TransferResponse> {
    if (note) await this.storeNote(this.o.db, from, contactId, `Transferred to the queue: ${note}`);
    // Announced while the chat is still held: an advisor accepting it from the queue never
    // hears a transfer meant for the one before (chatjs and our client end on it).
    const held = await findAgentContact(this.o.db, contactId);
    if (held?.status === "active" && held.advisorId === from.AdvisorId && held.participantId)
      await this.announce(contactId, held.participantId);
    const moved = await this.o.agents.requeue(contactId, from.AdvisorId);
    if (!moved) throw Errors.conflict(`Contact ${contactId} is no longer yours to transfer.`);
    return { ContactId: contactId, AdvisorId: null, AdvisorName: null };
  }

  /**
   * A hand-over that failed before the next advisor joined: the chat claimed for them goes back
   * to its queue (its note kept), and the handing advisor's participant leaves if it can; what
   * this cannot undo (the store away), the stale-claim sweep does.
   */
  private async putBack(contactId: string, handing: string, from: string): Promise<void> {
    try {
      await release(this.o.db, contactId);
      await this.o.agents.leave(contactId, handing).catch(() => {});
      await this.o.agents.released(contactId, from);
    } catch {
      // Left to the sweep (agents/claim-sweep.ts).
    }
  }

  /** The handing advisor's participant tells the chat: every session sees the transfer. */
  private async announce(contactId: string, participantId: string): Promise<void> {
    await this.o.centre.postEvent(contactId, participantId, {
      contentType: ContentType.TRANSFER_SUCCEEDED,
    });
  }

  private async storeNote(db: Db, from: AdvisorRecord, contactId: string, body: string) {
    await insertNote(db, {
      noteId: randomUUID(),
      contactId,
      advisorId: from.AdvisorId,
      advisorName: from.Name,
      body,
      mentions: [],
      clientToken: null,
      createdAt: this.now(),
    });
  }
}
