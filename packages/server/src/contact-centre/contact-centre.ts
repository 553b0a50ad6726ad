import { randomUUID } from "node:crypto";
import {
  ContentType,
  Limits,
  ParticipantRole,
  type AttributeSource,
  type Item,
} from "@chat-widget/protocol";
import { isoAt, type Clock } from "../clock.js";
import { Errors } from "../errors.js";
import {
  claimContinuation,
  pastMessages,
  rehydrated,
  rehydrationSource,
  releaseContinuation,
} from "./rehydration.js";
import type { FanOut } from "../fanout/fanout.js";
import type { Db } from "../store/db.js";
import { GroupCommit, type TurnBatchesOptions } from "../store/group-commit.js";
import {
  ATTACHMENTS_PER_CONTACT_QUOTA,
  attachmentExpired,
  attachmentQuotaExceeded,
  completeAttachment,
  countLiveAttachments,
  findAttachment,
  insertAttachment,
  UPLOAD_URL_TTL_MS,
  uploadExpired,
} from "./attachments-repo.js";
import { CENTRE_CHANNEL, isCentreMessage, type CentreMessage } from "./channel.js";
import { findContact, lockContact, markContactEnded, mergeAttributes } from "./contacts-repo.js";
import { findResponse, idempotencyKey, recordResponse } from "./idempotency-repo.js";
import { DEFAULT_CHAT_DURATION_MINUTES } from "./expiry.js";
import { attachmentItem, eventItem, messageItem, ownId, sentMessage } from "./item-factory.js";
import { CentreEmitter } from "./centre-emitter.js";
import { type ItemListener } from "./item-listeners.js";
import { MessageBatch, type QueuedMessage } from "./message-batch.js";
import { SenderCache } from "./sender-cache.js";
import { appendItems, findItem, findItemSeqs } from "./items-repo.js";
import { writeStarts, type Start } from "./chats-repo.js";
import { buildReceipt } from "./receipts.js";
import {
  findParticipant,
  insertParticipant,
  grantConnections,
  sweepTokens,
  listParticipants,
  markConnectedAt,
  markLeft,
  type ConnectionWrite,
} from "./participants-repo.js";
import { stripRecord, toContact, type ParticipantRecord } from "./rows.js";
import { hashToken, newToken } from "./tokens.js";
import type {
  AddParticipantOptions,
  AttachmentInput,
  ConnectionGrant,
  ConnectionRequest,
  ConnectionTokenGrant,
  Contact,
  ContactCentre,
  NewParticipant,
  OpenChat,
  Participant,
  PostInput,
  StreamChunk,
  Role,
  StartChatInput,
  StartedUpload,
  UploadInput,
} from "./types.js";

export interface ContactCentreOptions {
  db: Db;
  fanout: FanOut;
  clock: Clock;
  /** Errors thrown by onItemCommitted listeners or fan-out end here (logged). */
  onError: (error: unknown) => void;
  /**
   * The clock and the timer of the batches' rests on the embedded store (tests give their own;
   * by default performance.now and a timer).
   */
  restTimer?: Pick<TurnBatchesOptions, "now" | "sleep">;
}

interface MutationContext {
  tx: Db;
  contact: Contact;
  /** The time of this change: now, never before the contact's last item. */
  at: string;
}

interface MutationResult<T> {
  items: Item[];
  result: T;
  close?: CentreMessage[];
  /**
   * Items an earlier try of this same request committed, published again: that try's publish
   * may never have happened (its process stopped or died between commit and publish), and a
   * side whose websocket stayed open would never repair. Fan-out is at least once; clients
   * drop an Id they already have. Never appended or handed to listeners again.
   */
  republish?: Item[];
}

const RECEIPT_KINDS: Record<string, "read" | "delivered"> = {
  [ContentType.READ_RECEIPT]: "read",
  [ContentType.DELIVERED_RECEIPT]: "delivered",
};

/**
 * The most attribute keys one contact holds (the signed jwt's and an integrator's at start,
 * then what reports and the flow add): every advisor's queue update carries them all.
 */
export const MAX_CONTACT_ATTRIBUTES = 100;
/** How often a process deletes expired websocket and connection tokens (on a new connection). */
export const TOKEN_SWEEP_MS = 1_000;
/** The most messages one group commit holds (see MessageBatch). */
export const MESSAGES_PER_COMMIT = 100;
/**
 * On the embedded store, under load, the next message batch begins no sooner than this long
 * after the commit of a batch smaller than EMBEDDED_REST_BELOW (see TurnBatchesOptions.restMs):
 * each PGlite transaction costs the server's core a fixed share, and at 2,000 msgs/s offered
 * batches of ~3 messages filled the core. Larger batches (a backlog) go on at once. On
 * PostgreSQL a commit is mostly a wait for the database: resting there added latency.
 */
export const EMBEDDED_COMMIT_REST_MS = 1;
export const EMBEDDED_REST_BELOW = 10;
/** The most contacts whose senders the message batches keep (see SenderCache). */
export const CACHED_SENDER_CONTACTS = 20_000;
/**
 * On the embedded store, under load, the next start-chat or connection batch begins no sooner
 * than this long after the commit of one smaller than EMBEDDED_REST_BELOW, as message batches
 * do (EMBEDDED_COMMIT_REST_MS): without a rest 2,000 set-ups, 50 at a time, committed 1.3–1.7
 * statements a set-up, nearly every batch of one; resting 5 ms, 0.55–0.8 (LOAD-HISTORY session
 * 33). A lone visitor never waits: their start-chat and connection are in different batches.
 */
export const EMBEDDED_SETUP_REST_MS = 5;
/** The most new chats one group commit holds. */
export const STARTS_PER_COMMIT = 50;
/** The most connections (CreateParticipantConnection's writes) one group commit grants. */
export const GRANTS_PER_COMMIT = 50;

/** The contact centre on top of the store and the fan-out (see ContactCentre for the rules). */
export class DbContactCentre implements ContactCentre {
  private readonly out: CentreEmitter;
  /** Mutations begun and not yet committed and published (a shutdown waits for them). */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** When this process last deleted expired tokens (at most every TOKEN_SWEEP_MS). */
  private tokensSweptAt = Number.NEGATIVE_INFINITY;
  /** Participants' messages, committed many at a time. */
  private readonly messages: MessageBatch;
  /** New chats (contact, customer, first items), committed many at a time. */
  private readonly starts: GroupCommit<Start>;
  /** Connections granted (tokens and connected marks), many at a time: whether each was. */
  private readonly grants: GroupCommit<ConnectionWrite, boolean>;

  constructor(private readonly options: ContactCentreOptions) {
    this.out = new CentreEmitter(options.fanout, options.onError, (contactId, ids) =>
      findItemSeqs(options.db, contactId, ids),
    );
    // On the embedded store a batch under load rests `restMs` after a small one's commit.
    const pace = (restMs: number) =>
      options.db.embedded ? { ...options.restTimer, restMs, restBelow: EMBEDDED_REST_BELOW } : {};
    this.starts = new GroupCommit({
      db: options.db,
      maxBatch: STARTS_PER_COMMIT,
      write: writeStarts,
      pace: pace(EMBEDDED_SETUP_REST_MS),
    });
    this.grants = new GroupCommit({
      db: options.db,
      maxBatch: GRANTS_PER_COMMIT,
      write: grantConnections,
      pace: pace(EMBEDDED_SETUP_REST_MS),
    });
    this.messages = new MessageBatch({
      db: options.db,
      clock: options.clock,
      maxBatch: MESSAGES_PER_COMMIT,
      // A batch is written without a transaction: on PostgreSQL two round trips instead of
      // four (session 26, alternating windows, 200 chats: closed loop 6,153 → 6,942 msgs/s,
      // 5,000 offered p99 63–132 → 53–94 ms). The senders are kept, so a chat's next batch is
      // one statement; another process's change to a chat forgets them (hearOtherProcesses).
      senders: new SenderCache(CACHED_SENDER_CONTACTS),
      pace: pace(EMBEDDED_COMMIT_REST_MS),
      emit: (part) => this.out.emit(part.contact, part.items, part.lastSeq, [], part.republish),
      alone: (m: QueuedMessage) =>
        this.commitAndEmit(
          m.contactId,
          this.postStep(m.participantId, "SendMessage", m, (ctx, p) =>
            sentMessage(ctx.contact, p, ctx.at, m),
          ),
        ),
    });
  }

  private get db(): Db {
    return this.options.db;
  }

  private now(): string {
    return isoAt(this.options.clock.now());
  }

  async startChat(input: StartChatInput, open?: OpenChat): Promise<NewParticipant> {
    const at = this.now();
    const contactId = randomUUID();
    // A persistent chat continues an ended one: proved first, its past copied below.
    const { instanceId, persistentChat, visitorSubject, attributeSources = {} } = input;
    const source = persistentChat
      ? await rehydrationSource(this.db, instanceId, persistentChat, visitorSubject)
      : null;
    const contact: Contact = {
      contactId,
      initialContactId: source?.initialContactId ?? contactId,
      instanceId,
      contactFlowId: input.contactFlowId,
      status: "active",
      attributes: input.attributes ?? {},
      attributeSources,
      supportedContentTypes: [...new Set([ContentType.TEXT_PLAIN, ...input.supportedContentTypes])],
      createdAt: at,
      endedAt: null,
    };
    const token = newToken();
    const participant: Participant = {
      participantId: randomUUID(),
      contactId,
      role: "CUSTOMER",
      displayName: input.displayName,
      connectedAt: null,
      leftAt: null,
    };
    const items = source ? rehydrated(await pastMessages(this.db, source), contact, at) : [];
    items.push(eventItem(contact, participant, at, ContentType.PARTICIPANT_JOINED));
    const first = input.initialMessage;
    if (first) items.push(messageItem(contact, participant, at, first.contentType, first.content));
    const participants = [{ ...participant, tokenHash: hashToken(token), createdAt: at }];
    const opening = open ? await open(contact) : null;
    if (opening) {
      const speaker: Participant = {
        ...opening.speaker,
        contactId,
        role: "SYSTEM",
        connectedAt: null,
        leftAt: null,
      };
      participants.push({ ...speaker, tokenHash: hashToken(newToken()), createdAt: at });
      items.push(eventItem(contact, speaker, at, ContentType.PARTICIPANT_JOINED));
      for (const line of opening.lines) items.push(sentMessage(contact, speaker, at, line));
    }
    const minutes = input.durationMinutes ?? DEFAULT_CHAT_DURATION_MINUTES;
    const continuation = newToken();
    const proof = {
      visitorSubject: visitorSubject ?? null,
      continuationHash: hashToken(continuation),
    };
    const expiresAt = isoAt(Date.parse(at) + minutes * 60_000);
    if (source) await claimContinuation(this.db, source, contactId);
    await this.starts
      .commit({ chat: { contact, expiresAt, participants, items, proof }, opening })
      .catch(async (error: unknown) => {
        if (source) await releaseContinuation(this.db, source, contactId);
        throw error;
      });
    await this.out.emit(contact, items, 0, []);
    return {
      contactId,
      participantId: participant.participantId,
      participantToken: token,
      continuationToken: continuation,
      ...(source ? { continuedFromContactId: source.contactId } : {}),
      started: { participant: { ...participant, createdAt: at, firstConnectionAt: null }, contact },
    };
  }

  getContact(contactId: string): Promise<Contact | null> {
    return findContact(this.db, contactId);
  }

  async updateAttributes(
    contactId: string,
    attributes: Record<string, string>,
    source: AttributeSource,
  ): Promise<Contact> {
    const max = MAX_CONTACT_ATTRIBUTES;
    const contact = await mergeAttributes(this.db, contactId, attributes, max, source);
    this.messages.forget(contactId);
    if (!contact) throw Errors.notFound("Contact not found", contactId, "CONTACT");
    if (contact === "too many") {
      throw Errors.validation(
        `A contact holds at most ${MAX_CONTACT_ATTRIBUTES} attributes; these would pass that.`,
      );
    }
    return contact;
  }

  async getParticipants(contactId: string): Promise<Participant[]> {
    return (await listParticipants(this.db, contactId)).map(stripRecord);
  }

  addParticipant(
    contactId: string,
    role: Role,
    displayName: string,
    options: AddParticipantOptions = {},
  ): Promise<NewParticipant> {
    return this.mutate(contactId, async ({ tx, contact, at }) => {
      if (contact.status !== "active") throw Errors.accessDenied("The chat has ended.");
      const participantId = options.participantId ?? randomUUID();
      const token = options.participantToken ?? newToken();
      const participant: Participant = {
        participantId,
        contactId,
        role,
        displayName,
        connectedAt: null,
        leftAt: null,
      };
      const row = { ...participant, tokenHash: hashToken(token), createdAt: at };
      if (!(await insertParticipant(tx, row))) {
        throw Errors.conflict(`Participant ${participantId} has already joined.`);
      }
      return {
        items: [eventItem(contact, participant, at, ContentType.PARTICIPANT_JOINED)],
        result: { contactId, participantId, participantToken: token },
      };
    });
  }

  postMessage(contactId: string, participantId: string, input: PostInput): Promise<Item> {
    const { content } = input;
    if (typeof content !== "string" || content.length === 0) {
      return Promise.reject(Errors.validation("Content must be a non-empty string."));
    }
    const { contentType, clientToken, displayName, completes, id } = input;
    return this.track(
      this.messages.post({
        contactId,
        participantId,
        contentType,
        content,
        clientToken,
        displayName,
        completes,
        id,
      }),
    );
  }

  async postChunk(contactId: string, participantId: string, chunk: StreamChunk): Promise<Item> {
    const { contact, p } = await this.present(contactId, participantId);
    if (p.role !== "SYSTEM") throw Errors.accessDenied("Only the flow streams messages.");
    const speaker = chunk.displayName ? { ...p, displayName: chunk.displayName } : p;
    const item: Item = {
      ...messageItem(contact, speaker, chunk.startedAt, chunk.contentType, chunk.content),
      Id: chunk.messageId,
      MessageMetadata: {
        MessageId: chunk.messageId,
        MessageCompleted: false,
        ChunkNumber: chunk.chunkNumber,
      },
    };
    // As typing: fanned out, never stored, not reported to item listeners (the flow hears the
    // completed message).
    await this.out.publish({ kind: "item", contactId, item });
    return item;
  }

  async postEvent(contactId: string, participantId: string, input: PostInput): Promise<Item> {
    if (input.contentType === ContentType.TYPING) return this.postTyping(contactId, participantId);
    const receipt = RECEIPT_KINDS[input.contentType];
    return this.idempotentPost(contactId, participantId, "SendEvent", input, async (ctx, p) => {
      if (receipt) return buildReceipt(ctx.tx, ctx.contact, p, ctx.at, input.content, receipt);
      if (input.contentType === ContentType.CONNECTION_ACKNOWLEDGED) {
        await markConnectedAt(ctx.tx, participantId, ctx.at);
      }
      return eventItem(ctx.contact, p, ctx.at, input.contentType, input.content);
    });
  }

  startAttachmentUpload(
    contactId: string,
    participantId: string,
    input: UploadInput,
  ): Promise<StartedUpload> {
    return this.mutate(contactId, async (ctx) => {
      await this.requireActive(ctx, participantId);
      const now = this.options.clock.now();
      const key = idempotencyKey(participantId, "StartAttachmentUpload", input.clientToken, [
        input.contentType,
        input.sizeBytes,
        input.name,
      ])!;
      const previous = await findResponse<{ AttachmentId: string }>(ctx.tx, key, isoAt(now));
      const earlier = previous && (await findAttachment(ctx.tx, previous.AttachmentId));
      if (earlier) {
        const started = Date.parse(earlier.createdAt);
        return {
          items: [],
          result: { attachmentId: earlier.attachmentId, expires: started + UPLOAD_URL_TTL_MS },
        };
      }
      const live = await countLiveAttachments(ctx.tx, contactId, isoAt(now));
      if (live >= ATTACHMENTS_PER_CONTACT_QUOTA) throw attachmentQuotaExceeded();
      const attachmentId = randomUUID();
      await insertAttachment(ctx.tx, {
        attachmentId,
        contactId,
        participantId,
        contentType: input.contentType,
        name: input.name,
        sizeBytes: input.sizeBytes,
        createdAt: isoAt(now),
        expiresAt: isoAt(now + UPLOAD_URL_TTL_MS),
      });
      await recordResponse(ctx.tx, key, { AttachmentId: attachmentId }, isoAt(now));
      return { items: [], result: { attachmentId, expires: now + UPLOAD_URL_TTL_MS } };
    });
  }

  postAttachment(
    contactId: string,
    participantId: string,
    input: AttachmentInput,
  ): Promise<Item | null> {
    return this.mutate(contactId, async (ctx) => {
      const key = idempotencyKey(participantId, "CompleteAttachmentUpload", input.clientToken, [
        input.attachmentId,
      ]);
      if (key && (await findResponse(ctx.tx, key, ctx.at))) return { items: [], result: null };
      const p = await this.requireActive(ctx, participantId);
      const attachment = await findAttachment(ctx.tx, input.attachmentId);
      if (
        !attachment ||
        attachment.contactId !== contactId ||
        attachment.participantId !== participantId
      ) {
        throw Errors.validation(`Attachment ${input.attachmentId} was not found.`);
      }
      if (uploadExpired(attachment, ctx.at)) throw attachmentExpired(input.attachmentId);
      if (attachment.status === "pending") {
        throw Errors.validation(`Attachment ${input.attachmentId} has not been uploaded.`);
      }
      if (!(await completeAttachment(ctx.tx, attachment.attachmentId, ctx.at))) {
        throw Errors.conflict(`Attachment ${input.attachmentId} has already been completed.`);
      }
      if (key) await recordResponse(ctx.tx, key, {}, ctx.at);
      const item = attachmentItem(ctx.contact, p, ctx.at, attachment);
      return { items: [item], result: item };
    });
  }

  issueConnectionToken(contactId: string, participantId: string): Promise<ConnectionTokenGrant> {
    return this.createConnection(contactId, participantId, {
      websocket: false,
      credentials: true,
      connect: false,
    }).then((grant) => grant.credentials!);
  }

  async createConnection(
    contactId: string,
    participantId: string,
    request: ConnectionRequest,
  ): Promise<ConnectionGrant> {
    const nowMs = this.options.clock.now();
    const at = isoAt(nowMs);
    if (nowMs - this.tokensSweptAt >= TOKEN_SWEEP_MS) {
      this.tokensSweptAt = nowMs;
      await sweepTokens(this.db, "websocket_tokens", at);
      await sweepTokens(this.db, "connection_tokens", at);
    }
    const issue = (ttlMs: number) => {
      const token = newToken();
      const expiry = isoAt(nowMs + ttlMs);
      return { token, expiry, stored: { hash: hashToken(token), expiresAt: expiry } };
    };
    const websocket = request.websocket ? issue(Limits.WEBSOCKET_URL_TTL_MS) : null;
    const credentials = request.credentials ? issue(Limits.CONNECTION_TOKEN_TTL_MS) : null;
    const granted = await this.grants.commit({
      participantId,
      contactId,
      at,
      websocket: websocket?.stored ?? null,
      credentials: credentials?.stored ?? null,
      connected: request.connect,
      first: request.websocket || request.credentials,
    });
    if (!granted) throw Errors.accessDenied("The participant has left or the chat has ended.");
    const grant: ConnectionGrant = { at };
    if (websocket) grant.websocket = { token: websocket.token, expiry: websocket.expiry };
    if (credentials) {
      grant.credentials = { connectionToken: credentials.token, expiry: credentials.expiry };
    }
    return grant;
  }

  async markConnected(contactId: string, participantId: string): Promise<void> {
    const p = await findParticipant(this.db, participantId);
    if (!p || p.contactId !== contactId) throw Errors.accessDenied();
    await markConnectedAt(this.db, participantId, this.now());
  }

  disconnectParticipant(
    contactId: string,
    participantId: string,
    clientToken?: string,
  ): Promise<void> {
    return this.mutate(contactId, async (ctx) => {
      const key = idempotencyKey(participantId, "DisconnectParticipant", clientToken, []);
      if (key && (await findResponse(ctx.tx, key, ctx.at))) return { items: [], result: undefined };
      const p = await this.requireActive(ctx, participantId);
      await markLeft(ctx.tx, participantId, ctx.at);
      if (key) await recordResponse(ctx.tx, key, {}, ctx.at);
      const items = [eventItem(ctx.contact, p, ctx.at, ContentType.PARTICIPANT_LEFT)];
      const remaining = (await listParticipants(ctx.tx, contactId)).filter((x) => !x.leftAt);
      if (!remaining.some((x) => x.role === ParticipantRole.CUSTOMER)) {
        const end = await this.endItems(ctx, remaining);
        return { items: [...items, ...end.items], result: undefined, close: end.close };
      }
      return {
        items,
        result: undefined,
        close: [{ kind: "close", contactId, participantId, reason: "participant left" }],
      };
    });
  }

  endContact(contactId: string): Promise<void> {
    return this.mutate(contactId, async (ctx) => {
      if (ctx.contact.status !== "active") return { items: [], result: undefined };
      const remaining = (await listParticipants(ctx.tx, contactId)).filter((x) => !x.leftAt);
      const end = await this.endItems(ctx, remaining);
      return { items: end.items, result: undefined, close: end.close };
    });
  }

  onItemCommitted(listener: ItemListener): () => void {
    return this.out.listeners.add(listener);
  }

  // -- internals -------------------------------------------------------------------------

  private async endItems(
    ctx: MutationContext,
    remaining: ParticipantRecord[],
  ): Promise<{ items: Item[]; close: CentreMessage[] }> {
    const items: Item[] = [];
    for (const p of remaining) {
      await markLeft(ctx.tx, p.participantId, ctx.at);
      if (p.role !== "SYSTEM") {
        items.push(eventItem(ctx.contact, p, ctx.at, ContentType.PARTICIPANT_LEFT));
      }
    }
    await markContactEnded(ctx.tx, ctx.contact.contactId, ctx.at);
    items.push(eventItem(ctx.contact, null, ctx.at, ContentType.CHAT_ENDED));
    return {
      items,
      close: [{ kind: "close", contactId: ctx.contact.contactId, reason: "chat ended" }],
    };
  }

  /**
   * The contact and the participant of something fanned out without a transaction (typing, a
   * streamed chunk): the participant is still in the contact, and the contact active.
   */
  private async present(
    contactId: string,
    participantId: string,
  ): Promise<{ contact: Contact; p: Participant }> {
    const contact = await findContact(this.db, contactId);
    const p = await findParticipant(this.db, participantId);
    if (!contact || !p || p.contactId !== contactId || p.leftAt || contact.status !== "active") {
      throw Errors.accessDenied();
    }
    return { contact, p };
  }

  private async postTyping(contactId: string, participantId: string): Promise<Item> {
    const { contact, p } = await this.present(contactId, participantId);
    const item = eventItem(contact, p, this.now(), ContentType.TYPING);
    // Typing is fanned out, never stored, and not reported to item listeners.
    await this.out.publish({ kind: "item", contactId, item });
    return item;
  }

  /** Commit one item, or return the first item again for a repeated ClientToken. */
  private idempotentPost(
    contactId: string,
    participantId: string,
    operation: string,
    input: PostInput,
    build: (ctx: MutationContext, p: Participant) => Item | Promise<Item>,
  ): Promise<Item> {
    return this.mutate(contactId, this.postStep(participantId, operation, input, build));
  }

  /** idempotentPost's change of the locked contact. */
  private postStep(
    participantId: string,
    operation: string,
    input: PostInput,
    build: (ctx: MutationContext, p: Participant) => Item | Promise<Item>,
  ): (ctx: MutationContext) => Promise<MutationResult<Item>> {
    return async (ctx) => {
      const contactId = ctx.contact.contactId;
      const p = await this.requireActive(ctx, participantId);
      // The flow's own Ids: a message committed before is not committed again, whatever it says.
      const own = ownId(p, input);
      const earlier = own === undefined ? null : await findItem(ctx.tx, contactId, own);
      if (earlier) return { items: [], result: earlier, republish: [earlier] };
      const key = idempotencyKey(participantId, operation, input.clientToken, [
        input.contentType,
        input.content ?? null,
      ]);
      if (key) {
        const previous = await findResponse<{ Id: string }>(ctx.tx, key, ctx.at);
        const item = previous ? await findItem(ctx.tx, contactId, previous.Id) : null;
        if (item) return { items: [], result: item, republish: [item] };
      }
      const item = await build(ctx, p);
      if (key) await recordResponse(ctx.tx, key, { Id: item.Id }, ctx.at);
      return { items: [item], result: item };
    };
  }

  private async requireActive(ctx: MutationContext, participantId: string): Promise<Participant> {
    const p = await findParticipant(ctx.tx, participantId);
    if (!p || p.contactId !== ctx.contact.contactId) throw Errors.accessDenied();
    if (p.leftAt || ctx.contact.status !== "active") {
      throw Errors.accessDenied("The participant has left or the chat has ended.");
    }
    return stripRecord(p);
  }

  /**
   * Lock the contact, change it, commit the items, then fan them out and tell listeners; after
   * the contact's messages queued before it (its changes commit in the order they arrived).
   */
  private mutate<T>(
    contactId: string,
    fn: (ctx: MutationContext) => Promise<MutationResult<T>>,
  ): Promise<T> {
    const queued = this.messages.settled(contactId);
    return this.track(
      queued
        ? queued.then(() => this.commitAndEmit(contactId, fn))
        : this.commitAndEmit(contactId, fn),
    );
  }

  /**
   * Listens for other processes' changes to chats (their items and closes, through the
   * fan-out): the senders this process keeps of those chats are read again by their next batch
   * rather than refused by its write; all of them after the fan-out was interrupted. Returns
   * the function that stops listening.
   */
  async hearOtherProcesses(): Promise<() => Promise<void>> {
    const { fanout } = this.options;
    const stopResume = fanout.onResume(() => this.messages.forgetAll());
    const stop = await fanout.subscribe(CENTRE_CHANNEL, (message, remote) => {
      if (remote && isCentreMessage(message)) this.messages.forget(message.contactId);
    });
    return () => (stopResume(), stop());
  }

  /** Counts `running` among the changes a shutdown waits for. */
  private track<T>(running: Promise<T>): Promise<T> {
    this.inFlight.add(running);
    const forget = () => this.inFlight.delete(running);
    running.then(forget, forget);
    return running;
  }

  private async commitAndEmit<T>(
    contactId: string,
    fn: (ctx: MutationContext) => Promise<MutationResult<T>>,
  ): Promise<T> {
    const outcome = await this.db.transaction(async (tx) => {
      const row = await lockContact(tx, contactId);
      if (!row) throw Errors.notFound("Contact not found", contactId, "CONTACT");
      const last = row.last_item_at ? new Date(row.last_item_at as string).getTime() : 0;
      const at = isoAt(Math.max(this.options.clock.now(), last));
      const contact = toContact(row);
      const result = await fn({ tx, contact, at });
      await appendItems(tx, [{ contactId, lastSeq: row.last_seq, items: result.items }]);
      return { ...result, contact, lastSeq: row.last_seq };
    });
    this.messages.forget(contactId);
    const { contact, items, lastSeq, close = [], republish } = outcome;
    await this.out.emit(contact, items, lastSeq, close, republish);
    return outcome.result;
  }

  /**
   * Resolves when every mutation begun has committed and published its items, and every
   * listener call has finished, including the mutations those calls began (tests, shutdown:
   * the fan-out must outlive the publish of anything committed).
   */
  async idle(): Promise<void> {
    for (;;) {
      await this.out.listeners.idle();
      if (this.inFlight.size === 0) return;
      await Promise.allSettled([...this.inFlight]);
    }
  }
}
