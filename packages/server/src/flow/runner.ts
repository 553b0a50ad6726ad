/**
 * Runs the contact flows: starts a contact's flow when its customer joins, feeds it the
 * customer's messages, and performs what the engine decides through the contact centre.
 * It reacts to `onItemCommitted`, which runs once, in the process that committed the item;
 * the position is stored (optimistic concurrency) so any process continues correctly.
 */
import { ContentType, ItemType, ParticipantRole, type Item } from "@chat-widget/protocol";
import { isoAt, type Clock } from "../clock.js";
import type { Contact, ContactCentre } from "../contact-centre/types.js";
import { isServiceError } from "../errors.js";
import type { Db } from "../store/db.js";
import { receiveCustomerMessage, startFlow, type Decision } from "./engine.js";
import {
  createPosition,
  findPosition,
  saveParticipant,
  savePosition,
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

  /** Listen to committed items; returns the function that stops listening. */
  start(): () => void {
    return this.o.centre.onItemCommitted((contact, item) => this.onItem(contact, item));
  }

  async onItem(contact: Contact, item: Item): Promise<void> {
    if (item.ParticipantRole !== ParticipantRole.CUSTOMER || contact.status !== "active") return;
    if (item.ContentType === ContentType.PARTICIPANT_JOINED) return this.begin(contact);
    if (item.Type === ItemType.MESSAGE && typeof item.Content === "string" && item.ContentType) {
      return this.receive(contact, { contentType: item.ContentType, content: item.Content });
    }
  }

  private now(): string {
    return isoAt(this.o.clock.now());
  }

  private async begin(contact: Contact): Promise<void> {
    const flow = this.o.flows.get(contact.contactFlowId);
    if (!flow) return;
    if (!(await createPosition(this.o.db, contact.contactId, flow.id, this.now()))) return;
    const stored = await findPosition(this.o.db, contact.contactId);
    if (!stored) return;
    const decision = startFlow(flow, contact.attributes);
    if (
      await savePosition(
        this.o.db,
        contact.contactId,
        stored.version,
        decision.position,
        this.now(),
      )
    ) {
      await this.perform(flow, stored, decision);
    }
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
      if (decision.ignored === "not-waiting" || decision.ignored === "not-text") return;
      if (
        await savePosition(
          this.o.db,
          contact.contactId,
          stored.version,
          decision.position,
          this.now(),
        )
      ) {
        return this.perform(flow, stored, decision);
      }
    }
    this.o.onError(
      new Error(`Flow position of contact ${contact.contactId} kept changing; message not handled`),
    );
  }

  private async perform(flow: Flow, stored: StoredPosition, decision: Decision): Promise<void> {
    const ids = { bot: stored.botParticipantId, assistant: stored.assistantParticipantId };
    try {
      for (const effect of decision.effects) await this.apply(flow, stored.contactId, ids, effect);
    } catch (error) {
      // The chat ended while the flow was speaking: nothing more to do.
      if (isServiceError(error) && error.type === "AccessDeniedException") return;
      throw error;
    }
  }

  private async apply(
    flow: Flow,
    contactId: string,
    ids: { bot: string | null; assistant: string | null },
    effect: FlowEffect,
  ): Promise<void> {
    switch (effect.kind) {
      case "message": {
        let participantId = ids[effect.voice];
        if (participantId === null) {
          const name =
            effect.voice === "bot" ? (flow.botName ?? DEFAULT_BOT_NAME) : flow.assistantName;
          participantId = (await this.o.centre.addParticipant(contactId, "SYSTEM", name))
            .participantId;
          ids[effect.voice] = participantId;
          await saveParticipant(this.o.db, contactId, effect.voice, participantId);
        }
        await this.o.centre.postMessage(contactId, participantId, {
          contentType: effect.contentType,
          content: effect.content,
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
}
