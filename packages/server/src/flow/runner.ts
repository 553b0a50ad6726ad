/**
 * Runs the contact flows: starts a contact's flow when its customer joins, feeds it the
 * customer's messages, and performs what the engine decides through the contact centre.
 * It reacts to `onItemCommitted`, which runs once, in the process that committed the item;
 * the position is stored (optimistic concurrency) so any process continues correctly.
 *
 * A step is committed before it is performed: the new position and its effects are saved in
 * one write, then performed, then removed. Performing is idempotent (messages carry a
 * ClientToken made of the step, the flow's participants have ids made of the contact), so a
 * step cut short by a crash is performed again on start (or with the customer's next message)
 * without losing or doubling anything in the transcript.
 */
import { createHash } from "node:crypto";
import { ContentType, ItemType, ParticipantRole, type Item } from "@chat-widget/protocol";
import { isoAt, type Clock } from "../clock.js";
import type { Contact, ContactCentre } from "../contact-centre/types.js";
import { isServiceError } from "../errors.js";
import type { Db } from "../store/db.js";
import { receiveCustomerMessage, startFlow } from "./engine.js";
import {
  createPosition,
  findPosition,
  listPending,
  removeEffects,
  saveParticipant,
  saveStep,
  type StoredPosition,
} from "./positions-repo.js";
import type { Flow, FlowEffect } from "./types.js";

export const DEFAULT_BOT_NAME = "BOT";
/** Attempts when another process changes the same position at the same time. */
const MAX_ATTEMPTS = 5;

export interface FlowRunnerOptions {
  db: Db;
  centre: ContactCentre;
  clock: Clock;
  flows: ReadonlyMap<string, Flow>;
  /** Route a contact to an advisors' queue. */
  enqueue: (contactId: string, queue: string) => Promise<void>;
  onError: (error: unknown) => void;
}

export class FlowRunner {
  constructor(private readonly o: FlowRunnerOptions) {}

  /**
   * Listen to committed items and perform the steps a crash or restart cut short; returns
   * the function that stops both.
   */
  start(): () => Promise<void> {
    let stopped = false;
    const stopListening = this.o.centre.onItemCommitted((contact, item) =>
      this.onItem(contact, item),
    );
    const resuming = this.resume(() => stopped);
    return async () => {
      stopped = true;
      stopListening();
      await resuming;
    };
  }

  async onItem(contact: Contact, item: Item): Promise<void> {
    if (item.ParticipantRole !== ParticipantRole.CUSTOMER || contact.status !== "active") return;
    if (item.ContentType === ContentType.PARTICIPANT_JOINED) return this.begin(contact);
    if (item.Type === ItemType.MESSAGE && typeof item.Content === "string" && item.ContentType) {
      return this.receive(contact, { contentType: item.ContentType, content: item.Content });
    }
  }

  /** Perform every step still pending in the store (idempotent). */
  private async resume(stopped: () => boolean): Promise<void> {
    let pending: StoredPosition[];
    try {
      pending = await listPending(this.o.db);
    } catch (error) {
      this.o.onError(error);
      return;
    }
    for (const stored of pending) {
      if (stopped()) return;
      const flow = this.o.flows.get(stored.flowId);
      if (!flow) continue;
      try {
        await this.perform(flow, stored);
      } catch (error) {
        this.o.onError(error);
      }
    }
  }

  private now(): string {
    return isoAt(this.o.clock.now());
  }

  private async begin(contact: Contact): Promise<void> {
    const flow = this.o.flows.get(contact.contactFlowId);
    if (!flow) return;
    const decision = startFlow(flow, contact.attributes);
    const created = await createPosition(
      this.o.db,
      contact.contactId,
      flow.id,
      decision.position,
      decision.effects,
      this.now(),
    );
    if (created) await this.perform(flow, created);
  }

  private async receive(
    contact: Contact,
    message: { contentType: string; content: string },
  ): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await findPosition(this.o.db, contact.contactId);
      const flow = stored ? this.o.flows.get(stored.flowId) : undefined;
      if (!stored || !flow) return;
      const decision = receiveCustomerMessage(flow, stored, message, contact.attributes);
      if (decision.ignored === "not-waiting" || decision.ignored === "not-text") {
        return this.perform(flow, stored);
      }
      const saved = await saveStep(
        this.o.db,
        contact.contactId,
        stored.version,
        decision.position,
        decision.effects,
        this.now(),
      );
      if (saved) return this.perform(flow, saved);
    }
    this.o.onError(
      new Error(`Flow position of contact ${contact.contactId} kept changing; message not handled`),
    );
  }

  /** Perform the position's pending effects in order, then mark them performed. */
  private async perform(flow: Flow, stored: StoredPosition): Promise<void> {
    const pending = stored.pendingEffects;
    if (pending.length === 0) return;
    const ids = { bot: stored.botParticipantId, assistant: stored.assistantParticipantId };
    try {
      for (const { key, effect } of pending) {
        await this.apply(flow, stored.contactId, ids, key, effect);
      }
    } catch (error) {
      // The chat ended while the flow was speaking: nothing more to do.
      if (!isServiceError(error) || error.type !== "AccessDeniedException") throw error;
    }
    await removeEffects(
      this.o.db,
      stored.contactId,
      pending.map((p) => p.key),
      this.now(),
    );
  }

  private async apply(
    flow: Flow,
    contactId: string,
    ids: { bot: string | null; assistant: string | null },
    key: string,
    effect: FlowEffect,
  ): Promise<void> {
    switch (effect.kind) {
      case "message": {
        // One SYSTEM participant speaks for the flow; its bot lines carry the bot's name. (A
        // chat begun before that has a bot participant of its own, which keeps speaking.)
        const own = effect.voice === "bot" ? ids.bot : null;
        const participantId = own ?? ids.assistant ?? (await this.join(flow, contactId));
        if (!own) ids.assistant = participantId;
        await this.o.centre.postMessage(contactId, participantId, {
          contentType: effect.contentType,
          content: effect.content,
          clientToken: `flow:${key}`,
          ...(effect.voice === "bot" && !own
            ? { displayName: flow.botName ?? DEFAULT_BOT_NAME }
            : {}),
        });
        return;
      }
      case "setAttributes":
        await this.o.centre.updateAttributes(contactId, effect.attributes);
        return;
      case "queue":
        await this.o.enqueue(contactId, effect.queue);
        return;
      case "end":
        await this.o.centre.endContact(contactId);
        return;
    }
  }

  /** The flow's SYSTEM participant joins the contact, once even when the join is repeated. */
  private async join(flow: Flow, contactId: string): Promise<string> {
    const participantId = flowParticipantId(contactId, "assistant");
    try {
      await this.o.centre.addParticipant(contactId, "SYSTEM", flow.assistantName, {
        participantId,
      });
    } catch (error) {
      // Joined before a crash cut the step short.
      if (!isServiceError(error) || error.type !== "ConflictException") throw error;
    }
    await saveParticipant(this.o.db, contactId, "assistant", participantId);
    return participantId;
  }
}

/** The id of a flow voice's participant in a contact: a UUID (version 8) made of both. */
export function flowParticipantId(contactId: string, voice: "bot" | "assistant"): string {
  const h = createHash("sha256").update(`flow-participant:${contactId}:${voice}`).digest("hex");
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
