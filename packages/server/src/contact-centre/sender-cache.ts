import type { LockedSender } from "./participants-repo.js";
import type { Contact, Participant } from "./types.js";

/** A contact as a batch last read or wrote it, with those of its participants read with it. */
interface CachedContact {
  contact: Contact;
  lastSeq: number;
  lastItemAt: string | null;
  version: string;
  participants: Map<string, Participant>;
}

/**
 * The senders a message batch last read or wrote, so that the next batch of the same chats need
 * not read them again (on the embedded store the read was a seventh of the server's core at
 * 2,000 msgs/s). A hint, never the truth: the batch's write still checks each contact's version
 * (appendItemsIfUnchanged), so a stale entry costs a fallback, never a wrong write. A contact's
 * participants are kept only with the contact's version they were read at: any change to a
 * participant that matters to sending (leaving) changes its contact's row too. Another
 * process's change (PostgreSQL with Redis) is forgotten when the fan-out brings it, and caught
 * by the version check when it has not yet. Bounded: the contacts cached first are dropped
 * first.
 */
export class SenderCache {
  private readonly contacts = new Map<string, CachedContact>();
  private readonly contactOf = new Map<string, string>();

  constructor(private readonly maxContacts: number) {}

  get size(): number {
    return this.contacts.size;
  }

  /** The sender as last read or written, or undefined. */
  get(participantId: string): LockedSender | undefined {
    const contactId = this.contactOf.get(participantId);
    const cached = contactId === undefined ? undefined : this.contacts.get(contactId);
    const participant = cached?.participants.get(participantId);
    if (!cached || !participant) return undefined;
    const { contact, lastSeq, lastItemAt, version } = cached;
    return { participant, contact, lastSeq, lastItemAt, version };
  }

  /** Senders just read: each joins its contact's entry when read at the same version, else replaces it. */
  put(senders: Iterable<LockedSender>): void {
    for (const { participant, contact, lastSeq, lastItemAt, version } of senders) {
      let cached = this.contacts.get(contact.contactId);
      if (!cached || cached.version !== version) {
        this.forget(contact.contactId);
        cached = { contact, lastSeq, lastItemAt, version, participants: new Map() };
        this.contacts.set(contact.contactId, cached);
        this.bound();
      }
      cached.participants.set(participant.participantId, participant);
      this.contactOf.set(participant.participantId, contact.contactId);
    }
  }

  /**
   * The contact `contactId` as this process's write left it (its new `version`): the entry read
   * at `from` moves on; any other is forgotten.
   */
  advance(
    contactId: string,
    from: string,
    to: { lastSeq: number; lastItemAt: string | null; version: string },
  ): void {
    const cached = this.contacts.get(contactId);
    if (!cached) return;
    if (cached.version !== from) return this.forget(contactId);
    Object.assign(cached, to);
  }

  /** The fan-out was interrupted: every sender is read again by its contact's next batch. */
  clear(): void {
    this.contacts.clear();
    this.contactOf.clear();
  }

  forget(contactId: string): void {
    const cached = this.contacts.get(contactId);
    if (!cached) return;
    this.contacts.delete(contactId);
    for (const participantId of cached.participants.keys()) {
      if (this.contactOf.get(participantId) === contactId) this.contactOf.delete(participantId);
    }
  }

  private bound(): void {
    while (this.contacts.size > this.maxContacts) {
      const oldest = this.contacts.keys().next().value as string;
      this.forget(oldest);
    }
  }
}
