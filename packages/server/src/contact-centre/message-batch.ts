import type { Item } from "@chat-widget/protocol";
import { isoAt, type Clock } from "../clock.js";
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";
import { TurnBatches, type TurnBatchesOptions } from "../store/group-commit.js";
import { findRecordedItems, type IdempotencyKey } from "./idempotency-repo.js";
import { ownId, sentMessage, type MessageInput } from "./item-factory.js";
import {
  appendItems,
  appendItemsIfUnchanged,
  findItems,
  type ContactKeyedItem,
  type VersionedAppend,
} from "./items-repo.js";
import { lockSenders, readSenders, type LockedSender } from "./participants-repo.js";
import type { SenderCache } from "./sender-cache.js";
import { hashRequest } from "./tokens.js";
import type { Contact } from "./types.js";

/** A message waiting for the next group commit. */
export interface QueuedMessage extends MessageInput {
  contactId: string;
  participantId: string;
  clientToken?: string | undefined;
}

/** What one contact's part of a committed batch fans out (see MutationResult's republish). */
export interface CommittedPart {
  contact: Contact;
  /** The contact's last seq before `items`. */
  lastSeq: number;
  items: Item[];
  republish: Item[];
}

export interface MessageBatchOptions {
  db: Db;
  clock: Clock;
  /** The most messages one transaction commits. */
  maxBatch: number;
  /** How its batches are paced under load (see TurnBatchesOptions.restMs; default: no rest). */
  pace?: Omit<TurnBatchesOptions, "maxBatch">;
  /**
   * The senders as the last batch read or wrote them, so that a chat's next batch writes in one
   * statement (see SenderCache); `forget` a contact another process changed.
   */
  senders: SenderCache;
  /** Fan out a committed part (in commit order), before its senders hear back. */
  emit: (part: CommittedPart) => Promise<void>;
  /**
   * Commit one message on its own: used for each message of a batch whose transaction failed,
   * so that one bad message cannot refuse its neighbours.
   */
  alone: (message: QueuedMessage) => Promise<Item>;
}

interface Entry {
  message: QueuedMessage;
  key: IdempotencyKey | null;
  resolve: (item: Item) => void;
  reject: (error: unknown) => void;
}

type Outcome = Item | Error;

/**
 * A key as one text: the participant's Id (a UUID) and the request's hash (hex) have no space,
 * so the ClientToken last, whatever it holds, makes it unambiguous (a third of JSON's cost).
 */
const keyText = (k: IdempotencyKey): string =>
  `${k.participantId} ${k.requestHash} ${k.clientToken}`;

/**
 * Group commit of SendMessage: messages arriving while a batch is written wait for it, then
 * commit together, many contacts at once — at most `maxBatch`, and no timer: an idle server
 * commits a lone message after one turn of its event loop (under load on the embedded store,
 * `restMs` after a small batch's commit). A message is acknowledged only once its batch
 * committed. Each message is checked as SendMessage checks it alone (the sender is in the
 * contact, has not left, the chat is active; a repeated ClientToken or own Id returns the first
 * item), and is refused alone. A batch is first written without a transaction (writeUnlocked:
 * the senders read unless kept, then one statement that writes each contact only where it is
 * unchanged since), and only what that could not write goes through a transaction that locks
 * the senders' contacts (write).
 */
export class MessageBatch {
  private readonly batches: TurnBatches<Entry>;
  /** Per contact, settles once every message queued for it so far has settled. */
  private readonly settledByContact = new Map<string, Promise<void>>();

  constructor(private readonly o: MessageBatchOptions) {
    this.batches = new TurnBatches({ ...o.pace, maxBatch: o.maxBatch }, (batch) =>
      this.commit(batch),
    );
  }

  post(message: QueuedMessage): Promise<Item> {
    const key = message.clientToken
      ? {
          participantId: message.participantId,
          operation: "SendMessage",
          clientToken: message.clientToken,
          requestHash: hashRequest([message.contentType, message.content]),
        }
      : null;
    const committed = new Promise<Item>((resolve, reject) => {
      this.batches.push({ message, key, resolve, reject });
    });
    this.track(message.contactId, committed);
    return committed;
  }

  /**
   * Settles once every message queued so far for `contactId` is committed or refused, or null
   * when none is: a change to the contact that is not a message waits for it, so the contact's
   * changes commit in the order they arrived.
   */
  settled(contactId: string): Promise<void> | null {
    return this.settledByContact.get(contactId) ?? null;
  }

  /** One promise a message (two behind another of its contact): SendMessage's hot path. */
  private track(contactId: string, committed: Promise<Item>): void {
    const previous = this.settledByContact.get(contactId);
    const after = previous ? previous.then(() => committed) : committed;
    const settle = (): void => {
      if (this.settledByContact.get(contactId) === done) this.settledByContact.delete(contactId);
    };
    const done = after.then(settle, settle);
    this.settledByContact.set(contactId, done);
  }

  /** Other processes' changes may have gone unheard: every sender is read again. */
  forgetAll(): void {
    this.o.senders.clear();
  }

  /** The contact changed outside this batch's writes: its senders are read again. */
  forget(contactId: string): void {
    this.o.senders.forget(contactId);
  }

  private async commit(batch: Entry[]): Promise<void> {
    const { rest, failed } = await this.commitUnlocked(batch);
    for (const entry of rest) this.forget(entry.message.contactId);
    // A failed statement most likely met a repeated ClientToken: looked up at once.
    if (rest.length > 0) await this.commitLocked(rest, failed);
  }

  /**
   * Commits what it can of `batch` without a transaction (see writeUnlocked), settles it, and
   * returns the entries left to commit under lock: those of contacts that changed since they
   * were read, or the whole batch when the statement `failed` (a repeated ClientToken, say).
   */
  private async commitUnlocked(batch: Entry[]): Promise<{ rest: Entry[]; failed: boolean }> {
    let written: Awaited<ReturnType<MessageBatch["writeUnlocked"]>>;
    try {
      written = await this.writeUnlocked(batch);
    } catch {
      return { rest: batch, failed: true };
    }
    const { outcomes, parts, committed } = written;
    for (const part of parts) {
      const version = committed.get(part.contactId);
      if (version === undefined) continue;
      await this.o.emit(part);
      const last = part.items.at(-1);
      if (last) {
        const lastSeq = part.lastSeq + part.items.length;
        const to = { lastSeq, lastItemAt: last.AbsoluteTime ?? part.at, version };
        this.o.senders.advance(part.contactId, part.version, to);
      }
    }
    const rest: Entry[] = [];
    batch.forEach((entry, i) => {
      const outcome = outcomes[i]!;
      if (outcome instanceof Error) entry.reject(outcome);
      else if (committed.has(entry.message.contactId)) entry.resolve(outcome);
      else rest.push(entry);
    });
    return { rest, failed: false };
  }

  /** Commits `batch` under lock (see write), its ClientTokens looked up first with `lookUp`. */
  private async commitLocked(batch: Entry[], lookUp: boolean): Promise<void> {
    let written: { outcomes: Outcome[]; parts: CommittedPart[] };
    try {
      written = await this.o.db
        .transaction((tx) => this.write(tx, batch, lookUp))
        .catch((error: unknown) => {
          if (!(error instanceof RepeatedToken)) throw error;
          return this.o.db.transaction((tx) => this.write(tx, batch, true));
        });
    } catch (error) {
      // Nothing committed. Alone, each message fails (or passes) on its own; once one of a
      // sender's fails, its later ones fail with it, so that what it said stays in order.
      if (batch.length === 1) return batch[0]!.reject(error);
      const stopped = new Map<string, unknown>();
      for (const entry of batch) {
        const sender = entry.message.participantId;
        if (stopped.has(sender)) {
          entry.reject(stopped.get(sender));
          continue;
        }
        await this.o.alone(entry.message).then(entry.resolve, (failure: unknown) => {
          stopped.set(sender, failure);
          entry.reject(failure);
        });
      }
      return;
    }
    for (const part of written.parts) await this.o.emit(part);
    batch.forEach((entry, i) => {
      const outcome = written.outcomes[i]!;
      if (outcome instanceof Error) entry.reject(outcome);
      else entry.resolve(outcome);
    });
  }

  /**
   * Writes `batch` in `tx`. Without `lookUp`, its ClientTokens are taken as new (a repeat is
   * rare: a client's retry after a lost answer) and recording them finds out: a key recorded
   * before throws RepeatedToken, undoing the batch, which is then written again with `lookUp`,
   * answering each repeat with its first item. One statement less for every other batch.
   */
  private async write(
    tx: Db,
    batch: Entry[],
    lookUp: boolean,
  ): Promise<{ outcomes: Outcome[]; parts: CommittedPart[] }> {
    const senders = await lockSenders(tx, [...new Set(batch.map((e) => e.message.participantId))]);
    const now = this.o.clock.now();
    const keyed = lookUp ? batch.filter((e) => e.key !== null) : [];
    const found = await findRecordedItems(
      tx,
      keyed.map((e) => e.key!),
      isoAt(now),
    );
    const recorded = new Map<string, Item>();
    keyed.forEach((e, i) => {
      const item = found.get(i);
      if (item) recorded.set(keyText(e.key!), item);
    });
    // The flow's own Ids: a message committed before is not committed again, whatever it says.
    const owned = await findItems(tx, ownIds(batch, senders));
    const { outcomes, parts, fresh } = plan(batch, senders, owned, recorded, now);
    const recordedNow = await appendItems(tx, parts, { recorded: fresh, at: isoAt(now) });
    if (!lookUp && recordedNow < fresh.length) throw new RepeatedToken();
    return { outcomes, parts };
  }

  /**
   * Writes `batch` without a transaction: takes the senders and their contacts' versions (kept
   * from an earlier batch, or read: see `senders`), then appends every contact's items in one
   * statement that writes only the contacts still at the version taken
   * (appendItemsIfUnchanged), `committed`. A refusal stands (what refuses a sender, having left
   * or an ended chat, does not change back); the other messages of a contact that changed
   * meanwhile are not written. ClientTokens are taken as new: a repeated one throws.
   */
  private async writeUnlocked(
    batch: Entry[],
  ): Promise<{ outcomes: Outcome[]; parts: Part[]; committed: Map<string, string> }> {
    const { db } = this.o;
    const senders = await this.senders(batch);
    const now = this.o.clock.now();
    const owned = await findItems(db, ownIds(batch, senders));
    const { outcomes, parts, fresh } = plan(batch, senders, owned, new Map(), now);
    const committed = await appendItemsIfUnchanged(db, parts, { recorded: fresh, at: isoAt(now) });
    return { outcomes, parts, committed };
  }

  /**
   * The senders of `batch`, each with its contact: from the cache for a contact whose every
   * sender in the batch is there (all at the contact's one version), read for the others.
   */
  private async senders(batch: readonly Entry[]): Promise<Map<string, LockedSender>> {
    const cache = this.o.senders;
    const byContact = new Map<string, Set<string>>();
    for (const { message } of batch) {
      const ids = byContact.get(message.contactId) ?? new Set<string>();
      byContact.set(message.contactId, ids.add(message.participantId));
    }
    const senders = new Map<string, LockedSender>();
    const missing: string[] = [];
    for (const ids of byContact.values()) {
      const cached = [...ids].map((id) => cache.get(id));
      if (cached.every((s) => s !== undefined)) {
        for (const sender of cached) senders.set(sender.participant.participantId, sender);
      } else missing.push(...ids);
    }
    if (missing.length === 0) return senders;
    const read = await readSenders(this.o.db, missing);
    cache.put(read.values());
    for (const [id, sender] of read) senders.set(id, sender);
    return senders;
  }
}

type Part = CommittedPart & VersionedAppend & { at: string };

/**
 * What `batch` commits, given its senders as read, the flow's own Ids and the ClientTokens
 * `recorded` before: each message's outcome (its item, the first item of a repeat, or why it
 * is refused, as SendMessage alone would), each contact's part, and the keys to record.
 */
function plan(
  batch: readonly Entry[],
  senders: ReadonlyMap<string, LockedSender>,
  owned: Map<string, Item>,
  recorded: Map<string, Item>,
  now: number,
): { outcomes: Outcome[]; parts: Part[]; fresh: ContactKeyedItem[] } {
  const parts = new Map<string, Part>();
  const fresh: ContactKeyedItem[] = [];
  const outcomes = batch.map((entry): Outcome => {
    const { message, key } = entry;
    const sender = senders.get(message.participantId);
    const refusal = refused(sender, message.contactId);
    if (refusal) return refusal;
    const { participant, contact } = sender!;
    let part = parts.get(contact.contactId);
    if (!part) {
      const last = sender!.lastItemAt ? Date.parse(sender!.lastItemAt) : 0;
      const at = isoAt(Math.max(now, last));
      part = {
        contact,
        contactId: contact.contactId,
        lastSeq: sender!.lastSeq,
        version: sender!.version,
        at,
        items: [],
        republish: [],
      };
      parts.set(contact.contactId, part);
    }
    const own = ownId(participant, message);
    const earlier =
      (own !== undefined && owned.get(ownKey(contact.contactId, own))) ||
      (key && recorded.get(keyText(key)));
    if (earlier) {
      // Committed by an earlier request: published again (its publish may never have
      // happened); a repeat within this batch is published with the batch anyway.
      if (!part.items.includes(earlier) && !part.republish.includes(earlier)) {
        part.republish.push(earlier);
      }
      return earlier;
    }
    const item = sentMessage(contact, participant, part.at, message);
    part.items.push(item);
    if (own !== undefined) owned.set(ownKey(contact.contactId, own), item);
    if (key) {
      recorded.set(keyText(key), item);
      fresh.push({ key, item, contactId: contact.contactId });
    }
    return item;
  });
  return { outcomes, parts: [...parts.values()], fresh };
}

/** A ClientToken of a batch written without looking its keys up was recorded before. */
class RepeatedToken extends Error {}

const ownKey = (contactId: string, id: string): string => `${contactId} ${id}`;

/** The contacts and own Ids of the flow's messages in `batch` (see ownId). */
function ownIds(
  batch: readonly Entry[],
  senders: ReadonlyMap<string, LockedSender>,
): { contactId: string; itemId: string }[] {
  return batch.flatMap(({ message }) => {
    const sender = senders.get(message.participantId);
    const own = sender && ownId(sender.participant, message);
    return own === undefined ? [] : [{ contactId: message.contactId, itemId: own }];
  });
}

/** Why SendMessage refuses this sender, as it would alone; null when it may send. */
function refused(sender: LockedSender | undefined, contactId: string): Error | null {
  if (!sender || sender.participant.contactId !== contactId) return Errors.accessDenied();
  if (sender.participant.leftAt || sender.contact.status !== "active") {
    return Errors.accessDenied("The participant has left or the chat has ended.");
  }
  return null;
}
