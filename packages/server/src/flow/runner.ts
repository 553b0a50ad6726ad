/**
 * Runs the contact flows: opens a chat with its flow's first lines as the chat is written
 * (startChat, the gateway's start-chat), or starts a contact's flow when its customer joins
 * (a chat started otherwise), feeds it the customer's messages, and performs what the engine
 * decides through the contact centre.
 * It reacts to `onItemCommitted`, which runs once, in the process that committed the item;
 * the position is stored (optimistic concurrency) so any process continues correctly.
 *
 * A step is committed before it is performed: the new position and its effects are saved in
 * one write, then performed, then removed. Performing is idempotent (messages carry a
 * ClientToken made of the step, the flow's participants have ids made of the contact), so a
 * step cut short by a crash is performed again on start (or with the customer's next message)
 * without losing or doubling anything in the transcript.
 */
import { ContentType, ItemType, ParticipantRole, type Item } from "@chat-widget/protocol";
import { isoAt, type Clock } from "../clock.js";
import type { StatementPart } from "../contact-centre/chats-repo.js";
import type { MessageInput } from "../contact-centre/item-factory.js";
import type {
  ChatOpening,
  Contact,
  ContactCentre,
  NewParticipant,
  StartChatInput,
} from "../contact-centre/types.js";
import { isServiceError } from "../errors.js";
import type { Db } from "../store/db.js";
import { answer, type AnswererOptions } from "./answerer.js";
import type { BotClientOptions } from "./bot-client.js";
import {
  ALWAYS,
  fill,
  handOver,
  readsAdvisors,
  receiveCustomerMessage,
  startFlow,
} from "./engine.js";
import { flowParticipantId } from "./ids.js";
import { isOpen } from "./opening-hours.js";
import { PositionReads } from "./position-reads.js";
import {
  createPosition,
  findPosition,
  insertingPositions,
  listPending,
  positionsParam,
  removeEffects,
  saveParticipant,
  saveStep,
  type NewPosition,
  type StoredPosition,
} from "./positions-repo.js";
import type { Flow, FlowEffect, FlowFacts } from "./types.js";

export const DEFAULT_BOT_NAME = "BOT";

/** The positions of chats opened together (ChatOpening's `write`), in their chats' statement. */
const keepOpenings = (kept: unknown[]): StatementPart => ({
  sql: insertingPositions,
  params: [positionsParam(kept as NewPosition[])],
});

/** The runner stops (the server shuts down): a step cut short stays pending. */
class FlowStopped extends Error {
  override name = "FlowStopped";
}
/** Attempts when another process changes the same position at the same time. */
const MAX_ATTEMPTS = 5;
/** A waiting contact hears its new place when it moves up to this place or nearer. */
export const QUEUE_POSITION_UPDATES_FROM = 10;

export interface FlowRunnerOptions {
  db: Db;
  centre: ContactCentre;
  clock: Clock;
  flows: ReadonlyMap<string, Flow>;
  /** Route a contact to an advisors' queue. */
  enqueue: (contactId: string, queue: string) => Promise<void>;
  /** Whether an advisor is signed in and Available (read only for flows that ask). */
  advisorsAvailable: () => Promise<boolean>;
  /** The contacts waiting for an advisor, oldest first. */
  waiting: () => Promise<
    readonly { contactId: string; queue: string; requeuedAt?: string | null }[]
  >;
  onError: (error: unknown) => void;
  /** How bots are reached (tests: another fetch). */
  bot?: BotClientOptions;
}

/** Who speaks for a contact's flow: its own bot participant (older chats), its SYSTEM one. */
interface Speakers {
  bot: string | null;
  assistant: string | null;
}

export class FlowRunner {
  /** Announcements of places in the queue, one after another (never "2nd" after "1st"). */
  private announcing: Promise<void> = Promise.resolve();
  /** The flows with a condition on advisors' availability, found once, not per message. */
  private readonly askingAdvisors: ReadonlySet<Flow>;

  private readonly answering: AnswererOptions;
  private readonly stopping = new AbortController();
  /** Each customer message's read of its position, many contacts' in one statement. */
  private readonly positions: PositionReads;
  /** Per contact, its effects being performed (settled whatever the outcome). */
  private readonly performing = new Map<string, Promise<void>>();
  /**
   * Chats being started with their flow's opening (startChat), until their customer's joined
   * item arrives: whether effects are left to perform after the opening's lines.
   */
  private readonly opening = new Map<string, boolean>();

  constructor(private readonly o: FlowRunnerOptions) {
    this.positions = new PositionReads(o.db);
    this.askingAdvisors = new Set([...o.flows.values()].filter(readsAdvisors));
    this.answering = {
      centre: o.centre,
      clock: o.clock,
      onBotError: (error) => o.onError(error),
      stop: this.stopping.signal,
      ...(o.bot ? { bot: o.bot } : {}),
    };
  }

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
      // Answers in progress stop where they are; their steps stay pending for the next start.
      this.stopping.abort(new FlowStopped());
      await resuming;
    };
  }

  /**
   * Start a chat with its flow's opening (the gateway's start-chat): the flow's first step is
   * decided before the chat is written, and its leading lines, with the flow's SYSTEM
   * participant joining to say them and the position, are committed in the chat's own statement
   * (with the chats started in the same turn; several transactions after the customer joined
   * before). What follows those lines stays pending in the position and is performed once the
   * chat is committed. A flow that does not open with a line begins as the customer joins, as
   * with ContactCentre.startChat.
   */
  async startChat(input: StartChatInput): Promise<NewParticipant> {
    let opened: string | null = null;
    try {
      return await this.o.centre.startChat(input, async (contact) => {
        const opening = await this.openingOf(contact);
        if (opening) opened = contact.contactId;
        return opening;
      });
    } catch (error) {
      if (opened !== null) this.opening.delete(opened);
      throw error;
    }
  }

  private async openingOf(contact: Contact): Promise<ChatOpening | null> {
    const flow = this.o.flows.get(contact.contactFlowId);
    if (!flow) return null;
    const decision = startFlow(flow, contact.attributes, await this.facts(flow, contact));
    const first = decision.effects.findIndex((e) => e.kind !== "message");
    const said = first === -1 ? decision.effects.length : first;
    if (said === 0) return null;
    const lines = decision.effects.slice(0, said).map((effect): MessageInput => {
      if (effect.kind !== "message") throw new Error("unreachable: not a line");
      return {
        contentType: effect.contentType,
        content: effect.content,
        ...(effect.voice === "bot" ? { displayName: flow.botName ?? DEFAULT_BOT_NAME } : {}),
      };
    });
    const speaker = flowParticipantId(contact.contactId, "assistant");
    this.opening.set(contact.contactId, said < decision.effects.length);
    const kept: NewPosition = {
      contactId: contact.contactId,
      flowId: flow.id,
      position: decision.position,
      effects: decision.effects,
      at: this.now(),
      opened: { performed: said, assistantParticipantId: speaker },
    };
    return {
      speaker: { participantId: speaker, displayName: flow.assistantName },
      lines,
      kept,
      write: keepOpenings,
    };
  }

  async onItem(contact: Contact, item: Item): Promise<void> {
    if (item.ParticipantRole !== ParticipantRole.CUSTOMER || contact.status !== "active") return;
    if (item.ContentType === ContentType.PARTICIPANT_JOINED) {
      const opened = this.opening.get(contact.contactId);
      if (opened === undefined) return this.begin(contact);
      this.opening.delete(contact.contactId);
      if (!opened) return;
      const stored = await findPosition(this.o.db, contact.contactId);
      const flow = stored ? this.o.flows.get(stored.flowId) : undefined;
      if (stored && flow) return this.perform(flow, stored);
      return;
    }
    // A customer's message before they joined is a continued chat's past (rehydrated), written
    // with the opening: not said to today's flow (without an opening there is no position yet).
    if (this.opening.has(contact.contactId)) return;
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

  /**
   * What the flow may read now: its opening hours, if it asks the advisors' availability, and
   * which of the contact's attributes the verified jwt set.
   */
  private async facts(flow: Flow, contact: Contact): Promise<FlowFacts> {
    const now = this.o.clock.now();
    const open = flow.openingHours ? isOpen(flow.openingHours, now) : true;
    const advisorsAvailable = this.askingAdvisors.has(flow)
      ? await this.o.advisorsAvailable()
      : true;
    const sources = contact.attributeSources ?? {};
    const verified = Object.fromEntries(
      Object.entries(contact.attributes).filter(([key]) => sources[key] === "jwt"),
    );
    return { open, advisorsAvailable, now, verified };
  }

  private async begin(contact: Contact): Promise<void> {
    const flow = this.o.flows.get(contact.contactFlowId);
    if (!flow) return;
    const decision = startFlow(flow, contact.attributes, await this.facts(flow, contact));
    const created = await createPosition(this.o.db, {
      contactId: contact.contactId,
      flowId: flow.id,
      position: decision.position,
      effects: decision.effects,
      at: this.now(),
    });
    if (created) await this.perform(flow, created);
  }

  private async receive(
    contact: Contact,
    message: { contentType: string; content: string },
  ): Promise<void> {
    // A flow that listens no more would only find nothing to do.
    if (this.positions.listensNoMore(contact.contactId)) return;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await this.positions.find(contact.contactId);
      const flow = stored ? this.o.flows.get(stored.flowId) : undefined;
      if (!stored || !flow) return;
      // Only a message the waiting flow will branch on (not a bot echo) needs today's facts.
      const deciding = stored.waitingIn !== null && !stored.pendingEchoes.includes(message.content);
      const facts = deciding ? await this.facts(flow, contact) : ALWAYS;
      const decision = receiveCustomerMessage(flow, stored, message, contact.attributes, facts);
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

  /**
   * Perform the position's pending effects, one contact's at a time in this process: a contact's
   * items already reach the runner one by one, but resume() at start does not, and an answer
   * lasts seconds. The later caller performs what is still pending once the earlier is done.
   * (Two processes may still perform the same answer at once: it streams under the same Ids.)
   */
  private perform(flow: Flow, stored: StoredPosition): Promise<void> {
    const contactId = stored.contactId;
    const before = this.performing.get(contactId);
    const done = before
      ? before.then(async () => {
          const now = await findPosition(this.o.db, contactId);
          if (now) await this.performPending(flow, now);
        })
      : this.performPending(flow, stored);
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.performing.set(contactId, settled);
    void settled.then(() => {
      if (this.performing.get(contactId) === settled) this.performing.delete(contactId);
    });
    return done;
  }

  /** Perform the position's pending effects in order, then mark them performed. */
  private async performPending(flow: Flow, stored: StoredPosition): Promise<void> {
    const pending = stored.pendingEffects;
    if (pending.length === 0) return;
    const ids: Speakers = {
      bot: stored.botParticipantId,
      assistant: stored.assistantParticipantId,
    };
    /** The first answer state whose bot handed over. */
    let handingOver: string | null = null;
    /** The flow's consecutive lines, posted in one turn: one group commit, still in order. */
    let saying: Promise<unknown>[] = [];
    try {
      for (const { key, effect } of pending) {
        if (effect.kind === "message") {
          const { committed } = await this.say(flow, stored.contactId, ids, key, effect);
          // Awaited below; a failure is never left unhandled when an earlier step throws first.
          committed.catch(() => {});
          saying.push(committed);
          continue;
        }
        await Promise.all(saying);
        saying = [];
        const from = await this.apply(flow, stored.contactId, ids, key, effect);
        handingOver ??= from;
      }
      await Promise.all(saying);
    } catch (error) {
      // Stopping: what is left stays pending, performed again at the next start.
      if (error instanceof FlowStopped) return;
      // The chat ended while the flow was speaking: nothing more to do.
      if (!isServiceError(error) || error.type !== "AccessDeniedException") throw error;
      handingOver = null;
    }
    const keys = pending.map((p) => p.key);
    if (handingOver !== null && (await this.handOver(flow, stored.contactId, handingOver, keys)))
      return;
    await removeEffects(this.o.db, stored.contactId, keys, this.now());
  }

  /**
   * The bot of answer state `stateId` handed over: the flow goes on to its handOver state, saved
   * in the same write that marks the effects `performed` (then performed). False when there is
   * nothing to hand over (the chat ended, or a branch left the state meanwhile).
   */
  private async handOver(
    flow: Flow,
    contactId: string,
    stateId: string,
    performed: string[],
  ): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await findPosition(this.o.db, contactId);
      const contact = await this.o.centre.getContact(contactId);
      if (!stored || contact?.status !== "active") return false;
      const facts = await this.facts(flow, contact);
      const decision = handOver(flow, stored, stateId, contact.attributes, facts);
      if (!decision) return false;
      const saved = await saveStep(
        this.o.db,
        contactId,
        stored.version,
        decision.position,
        decision.effects,
        this.now(),
        performed,
      );
      if (saved) {
        // Already this contact's turn (perform() would wait for itself).
        await this.performPending(flow, saved);
        return true;
      }
    }
    throw new Error(`Flow position of contact ${contactId} kept changing; no hand-over yet`);
  }

  /**
   * Perform one effect other than a line (`say`); returns the answer state whose bot hands
   * over, if it does.
   */
  private async apply(
    flow: Flow,
    contactId: string,
    ids: Speakers,
    key: string,
    effect: Exclude<FlowEffect, { kind: "message" }>,
  ): Promise<string | null> {
    switch (effect.kind) {
      case "answer": {
        const participantId = ids.assistant ?? (await this.join(flow, contactId));
        ids.assistant = participantId;
        const contact = await this.o.centre.getContact(contactId);
        const handsOver = await answer(this.answering, {
          flow,
          contactId,
          participantId,
          key,
          effect,
          attributes: contact?.attributes ?? {},
        });
        return handsOver ? effect.state : null;
      }
      case "setAttributes":
        await this.o.centre.updateAttributes(contactId, effect.attributes, "flow");
        return null;
      case "queue":
        await this.o.enqueue(contactId, effect.queue);
        return null;
      case "end":
        await this.o.centre.endContact(contactId);
        return null;
    }
  }

  /**
   * Posts a line of the flow once its speaker has joined; resolves with its commit still
   * pending (`committed`): lines posted in the same turn commit together, in the order posted.
   */
  private async say(
    flow: Flow,
    contactId: string,
    ids: Speakers,
    key: string,
    effect: Extract<FlowEffect, { kind: "message" }>,
  ): Promise<{ committed: Promise<unknown> }> {
    // One SYSTEM participant speaks for the flow; its bot lines carry the bot's name. (A chat
    // begun before that has a bot participant of its own, which keeps speaking.)
    const own = effect.voice === "bot" ? ids.bot : null;
    const participantId = own ?? ids.assistant ?? (await this.join(flow, contactId));
    if (!own) ids.assistant = participantId;
    const committed = this.o.centre.postMessage(contactId, participantId, {
      contentType: effect.contentType,
      content: effect.content,
      clientToken: `flow:${key}`,
      ...(effect.voice === "bot" && !own ? { displayName: flow.botName ?? DEFAULT_BOT_NAME } : {}),
    });
    return { committed };
  }

  /**
   * Tell waiting contacts their place in the queue (issue 24), in their flow's `queuePosition`
   * words: the contact that just `joined` wherever it is, the others when they are
   * QUEUE_POSITION_UPDATES_FROM-th or nearer. Each place is said once per contact (the message's
   * ClientToken is made of it), however many changes or processes announce it.
   */
  announcePositions(joined?: string): Promise<void> {
    this.announcing = this.announcing
      .then(() => this.announce(joined))
      .catch((error: unknown) => this.o.onError(error));
    return this.announcing;
  }

  private async announce(joined: string | undefined): Promise<void> {
    const places = new Map<string, number>();
    for (const { contactId, queue, requeuedAt } of await this.o.waiting()) {
      const place = (places.get(queue) ?? 0) + 1;
      places.set(queue, place);
      if (joined !== undefined ? contactId !== joined : place > QUEUE_POSITION_UPDATES_FROM)
        continue;
      const stored = await findPosition(this.o.db, contactId);
      const flow = stored ? this.o.flows.get(stored.flowId) : undefined;
      if (!stored || !flow?.queuePosition) continue;
      try {
        const assistant = stored.assistantParticipantId ?? (await this.join(flow, contactId));
        await this.o.centre.postMessage(contactId, assistant, {
          contentType: ContentType.TEXT_MARKDOWN,
          content: fill(flow.queuePosition, { position: String(place) }),
          // Back in the queue (its advisor was revoked), the visitor hears each place anew.
          clientToken: `queue-position:${place}${requeuedAt ? `:${requeuedAt}` : ""}`,
        });
      } catch (error) {
        // The chat ended, or was accepted, meanwhile: nothing to say.
        if (!isServiceError(error) || error.type !== "AccessDeniedException") throw error;
      }
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
