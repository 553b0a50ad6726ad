/**
 * Answers a question asked in an answer state (issue 26), from the flow's FAQ or from the
 * company's bot, streamed as it comes (docs/protocol.md §3.4.1). Every message it commits has
 * an Id made of the flow step and its place in the answer: a step performed again (after a
 * crash, or by another process) asks again and streams under the same Ids, and what was
 * committed before is not committed twice (PostInput.id).
 */
import { ContentType, Limits } from "@chat-widget/protocol";
import type { Clock } from "../clock.js";
import { MessageStream } from "../contact-centre/message-stream.js";
import type { ContactCentre } from "../contact-centre/types.js";
import { askBot, BotError, type BotClientOptions } from "./bot-client.js";
import { FAQ_WORD_PAUSE_MS, findAnswer, wordByWord } from "./faq.js";
import { flowItemId } from "./ids.js";
import type { Flow, FlowAnswer, FlowEffect } from "./types.js";

/** What the assistant says when the bot fails, unless the state says otherwise. */
export const BOT_FAILURE =
  "Sorry, our assistant can't answer right now. Let me find an advisor for you.";

export interface AnswererOptions {
  centre: ContactCentre;
  clock: Clock;
  /** The bot failed (the company should hear of it). */
  onBotError: (error: BotError, contactId: string) => void;
  bot?: BotClientOptions;
  /** The server stops: an answer in progress stops where it is, to be performed again later. */
  stop: AbortSignal;
}

export interface Question {
  flow: Flow;
  contactId: string;
  /** The flow's SYSTEM participant, which speaks the answer. */
  participantId: string;
  /** The flow step's key: the answer's Ids are made of it. */
  key: string;
  effect: Extract<FlowEffect, { kind: "answer" }>;
  attributes: Record<string, string>;
}

/** The most one answer may say: four messages at the protocol's limit; past it, the bot failed. */
export const MAX_ANSWER_CHARS = 4 * Limits.TEXT_CONTENT_MAX;

/** Where to cut `text` at most `room` characters in, never inside a surrogate pair (an emoji). */
function cutAt(text: string, room: number): number {
  if (room >= text.length) return text.length;
  const code = text.charCodeAt(room - 1);
  return code >= 0xd800 && code <= 0xdbff ? room - 1 : room;
}

/** The messages of one answer, each under the next Id of the step. */
class Answer {
  #n = 0;
  #stream: MessageStream | null = null;
  #said = 0;

  constructor(
    private readonly o: AnswererOptions,
    private readonly q: Question,
    private readonly seed: (n: number) => string,
  ) {}

  private next(): string {
    return this.seed(this.#n++);
  }

  /** Stream a piece of markdown; a message full at the protocol's limit goes on in the next. */
  async piece(text: string): Promise<void> {
    this.o.stop.throwIfAborted();
    this.#said += text.length;
    if (this.#said > MAX_ANSWER_CHARS) {
      throw new BotError(`The bot's answer is over ${MAX_ANSWER_CHARS} characters.`);
    }
    let rest = text;
    while (rest !== "") {
      this.#stream ??= new MessageStream(this.o.centre, this.q.contactId, this.q.participantId, {
        contentType: ContentType.TEXT_MARKDOWN,
        id: this.next(),
        now: () => new Date(this.o.clock.now()),
      });
      const cut = cutAt(rest, Limits.TEXT_CONTENT_MAX - this.#stream.text.length);
      if (cut <= 0) {
        await this.end();
        continue;
      }
      await this.#stream.append(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
  }

  /** Commit what was streamed, if anything. */
  async end(): Promise<void> {
    const stream = this.#stream;
    this.#stream = null;
    if (stream && stream.text !== "") await stream.complete();
  }

  /** A whole message (the bot's JSON answer, the failure notice). */
  async message(contentType: string, content: string): Promise<void> {
    await this.end();
    await this.o.centre.postMessage(this.q.contactId, this.q.participantId, {
      contentType,
      content,
      id: this.next(),
    });
  }
}

/** Answer the question; resolves true when the bot hands over (or failed). */
export async function answer(o: AnswererOptions, q: Question): Promise<boolean> {
  const state: FlowAnswer | undefined = q.flow.states[q.effect.state]?.answer;
  const ids = (n: number) => flowItemId(q.contactId, `${q.key}:${n}`);
  const out = new Answer(o, q, ids);
  if (!state) return false;
  if (state.from === "faq") {
    const faq = q.flow.faq;
    if (!faq) return false;
    const pause = faq.wordPauseMs ?? FAQ_WORD_PAUSE_MS;
    for await (const word of wordByWord(findAnswer(faq, q.effect.question), pause)) {
      await out.piece(word);
    }
    await out.end();
    return false;
  }
  if (!state.bot) return false;
  let handOver = false;
  try {
    const request = {
      requestId: ids(0),
      contactId: q.contactId,
      message: { contentType: q.effect.contentType, content: q.effect.question },
      attributes: q.attributes,
    };
    for await (const said of askBot(state.bot, request, o.bot, o.stop)) {
      if (said.kind === "piece") await out.piece(said.text);
      else if (said.kind === "message") await out.message(said.contentType, said.content);
      else handOver = true;
    }
    await out.end();
    return handOver;
  } catch (error) {
    if (!(error instanceof BotError)) throw error;
    o.onBotError(error, q.contactId);
    await out.end();
    await out.message(ContentType.TEXT_MARKDOWN, state.failure ?? BOT_FAILURE);
    return true;
  }
}
