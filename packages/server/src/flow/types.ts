/**
 * A contact flow is JSON data (spec docs/decisions.md #9): named states, each with actions the flow
 * performs on entering it and one way to leave it. Files live in `packages/server/flows/`.
 *
 * One SYSTEM participant, named the flow's `assistantName`, speaks for the flow in two voices
 * (docs/product.md §2 "Transcript rendering", §4 echo convention), told apart by each message's DisplayName
 * as the hosted service's SYSTEM_MESSAGE and BOT lines are:
 * - the bot (DisplayName `BOT`, or the flow's `botName`): its list pickers are shown with
 *   clickable options; its plain or markdown messages are protocol traffic the widget echoes
 *   back (the echo turns "bot active" on, which makes the options clickable), except the
 *   sentinel `input`, which means "wait for the customer to type";
 * - the assistant (DisplayName `assistantName`): its messages are "non-bot system messages"
 *   and appear in the widget as incoming messages.
 */

import type { OpeningHours } from "./opening-hours.js";

export interface FlowElement {
  title: string;
  subtitle?: string;
}

export interface FlowListPicker {
  title: string;
  subtitle?: string;
  elements: FlowElement[];
  /** The bot message sent just before the picker so that its echo makes the options clickable; default: the title. */
  trigger?: string;
}

/**
 * Any of the five interactive templates (docs/protocol.md §6, checked by `checkTemplate`), sent by
 * the bot after its `trigger` line (default: the template's title), as a list picker is. A
 * TimePicker's `timeslots` may be a rule (flow/timeslots.ts) made into slots when it is sent.
 */
export type FlowTemplate = Record<string, unknown> & { trigger?: string };

/** One thing the flow does when it enters a state. Text may hold `{{attributeName}}` placeholders. */
export type FlowAction =
  | { say: string }
  | { botSay: string }
  | { listPicker: FlowListPicker }
  | { template: FlowTemplate }
  | { input: true }
  | { setAttributes: Record<string, string> };

/** A branch taken on the customer's text, tried in order. */
export interface FlowBranch {
  /** Texts (compared trimmed, case- and space-insensitive) that take this branch. */
  equals?: string[];
  /** Words or phrases; the branch is taken when the text contains one of them as whole words. */
  contains?: string[];
  /** A regular expression (JavaScript syntax, case-insensitive) the trimmed text must match. */
  pattern?: string;
  /** With `pattern`: store the match (its first group if there is one) in this attribute. */
  saveAs?: string;
  next: string;
}

/**
 * A branch taken on the contact's attributes, or on what the contact centre knows now, tried
 * in order. Exactly one of `attribute`, `open` and `advisorsAvailable`.
 */
export interface FlowCondition {
  attribute?: string;
  /** true: the attribute is set and not blank; false: it is missing or blank. */
  present?: boolean;
  /** The attribute equals this value. */
  equals?: string;
  /**
   * An attribute condition reads only the value of the verified visitor jwt (issue 57), unless
   * this is true: then also what the page, the visitor's report or the flow itself set.
   */
  unverified?: boolean;
  /** Taken when the flow's `openingHours` are (true) or are not (false) open now. */
  open?: boolean;
  /** Taken when an advisor is (true) or no advisor is (false) signed in and Available. */
  advisorsAvailable?: boolean;
  next: string;
}

/** What the contact centre knows at the moment the flow decides (issue 24). */
export interface FlowFacts {
  /** Within the flow's opening hours (always, for a flow without them). */
  open: boolean;
  /** At least one advisor is signed in and Available. */
  advisorsAvailable: boolean;
  /** The time (epoch milliseconds) a TimePicker's slots are made from (default: the clock's now). */
  now?: number;
  /** The attributes whose values came from the verified visitor jwt (default: none). */
  verified?: Readonly<Record<string, string>>;
}

/** One question the built-in assistant answers (issue 26): matched on its question and keywords. */
export interface FaqEntry {
  question: string;
  /** More words or phrases a visitor may use for it. */
  keywords?: string[];
  /** Markdown, streamed word by word. */
  answer: string;
}

/** What the flow's built-in assistant knows: the shop's FAQ. */
export interface FlowFaq {
  entries: FaqEntry[];
  /** Said (streamed too) when no entry answers the question. */
  noAnswer: string;
  /** Pause between two streamed words, in milliseconds (default FAQ_WORD_PAUSE_MS). */
  wordPauseMs?: number;
}

/** A company's own bot behind an HTTP endpoint (flow/bot-client.ts says what it is sent and may answer). */
export interface FlowBot {
  /** Where the visitor's messages are POSTed: an http or https URL. */
  url: string;
  /** Wait for the bot to start answering, and for each next piece of a stream (ms, default 10 000). */
  timeoutMs?: number;
  /** The longest one answer may take (ms, default 60 000). */
  maxAnswerMs?: number;
  /** Sent with every request; `{{env.NAME}}` in a value is the server's environment variable NAME. */
  headers?: Record<string, string>;
}

/**
 * A state that answers every customer message (streamed) until one takes a branch out: the
 * customer asks question after question.
 */
export interface FlowAnswer {
  /** Who answers: the flow's `faq`, or the `bot` endpoint. */
  from: "faq" | "bot";
  bot?: FlowBot;
  /** Messages that leave the state instead of being answered, tried in order. */
  branches: FlowBranch[];
  /** With a bot: the state to go to when the bot hands over, or fails. */
  handOver?: string;
  /** With a bot: what the assistant says when the bot fails (default BOT_FAILURE). */
  failure?: string;
}

export interface FlowState {
  actions?: FlowAction[];
  /** Go straight on to this state. */
  next?: string;
  /** Decide on the contact's attributes. */
  check?: { conditions: FlowCondition[]; otherwise: string };
  /** Wait for the customer's message and branch on its text. */
  wait?: { branches: FlowBranch[]; otherwise: string };
  /** Answer the customer's messages until a branch leaves. */
  answer?: FlowAnswer;
  /** Route the contact to this advisors' queue; the flow is then over. */
  queue?: string;
  /** End the contact; the flow is then over. */
  end?: true;
}

export interface Flow {
  id: string;
  name?: string;
  /** Display name of the bot participant; `BOT` is what the widget recognises. */
  botName?: string;
  /** Display name of the participant whose messages the customer reads. */
  assistantName: string;
  start: string;
  states: Record<string, FlowState>;
  /** When advisors answer; `open` conditions read it. Without it the flow is always open. */
  openingHours?: OpeningHours;
  /**
   * Said by the assistant when the contact joins an advisors' queue and each time its place
   * moves up (to 10th or nearer): `{{position}}` is its place, 1 for the next to be answered.
   */
  queuePosition?: string;
  /** What `answer: { from: "faq" }` states answer from. */
  faq?: FlowFaq;
}

/** The persisted position of one contact in its flow. */
export interface FlowPosition {
  /** The state waiting for the customer's message; null once the flow is over. */
  waitingIn: string | null;
  /** Contents of bot messages sent and not yet echoed back by the widget (oldest first). */
  pendingEchoes: string[];
  /** How the flow ended, once it has: routed to a queue, ended the contact, or ran out of states. */
  outcome: "queued" | "ended" | "finished" | null;
}

/** What the runner must do, in order, after the engine decided. */
export type FlowEffect =
  | { kind: "message"; voice: "bot" | "assistant"; contentType: string; content: string }
  | { kind: "setAttributes"; attributes: Record<string, string> }
  /** Answer the customer's question in the answer state `state`, streamed (the runner does). */
  | { kind: "answer"; state: string; contentType: string; question: string }
  | { kind: "queue"; queue: string }
  | { kind: "end" };
