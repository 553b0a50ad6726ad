/**
 * The contact flow engine: pure functions from (flow, position, customer message, contact
 * attributes) to the next position and the effects to perform. No I/O, no clock.
 */
import { carouselSelection, ContentType } from "@chat-widget/protocol";
import { makeTimeslots, timeslotRule, withTimeslots, type TimeslotRule } from "./timeslots.js";
import type {
  Flow,
  FlowAction,
  FlowBranch,
  FlowCondition,
  FlowEffect,
  FlowFacts,
  FlowPosition,
} from "./types.js";

/** The bot message content the widget does not echo: "wait for the customer to type" (docs/product.md §4). */
export const INPUT_SENTINEL = "input";
/** A flow that passes this many states without waiting is broken (a loop); it stops. */
export const MAX_STEPS_PER_TURN = 50;
/** Bot messages remembered for echo detection; older ones are forgotten. */
export const MAX_PENDING_ECHOES = 10;

export interface CustomerText {
  contentType: string;
  content: string;
}

export interface Decision {
  position: FlowPosition;
  effects: FlowEffect[];
  /** Why the message changed nothing, when it did not. */
  ignored?: "echo" | "not-waiting" | "not-text";
}

export const initialPosition = (): FlowPosition => ({
  waitingIn: null,
  pendingEchoes: [],
  outcome: null,
});

/** Facts for a flow that reads none: open, an advisor available. */
export const ALWAYS: FlowFacts = { open: true, advisorsAvailable: true };

/** Enter the flow's start state. */
export function startFlow(
  flow: Flow,
  attributes: Record<string, string>,
  facts: FlowFacts = ALWAYS,
): Decision {
  return run(flow, flow.start, initialPosition(), { ...attributes }, [], facts);
}

/**
 * React to a customer message. The widget's echo of a bot message is protocol traffic
 * (docs/decisions.md #4): it is consumed and changes nothing. Otherwise a waiting flow branches on
 * the text; a flow that is not waiting ignores the message (an advisor handles the chat).
 */
export function receiveCustomerMessage(
  flow: Flow,
  position: FlowPosition,
  message: CustomerText,
  attributes: Record<string, string>,
  facts: FlowFacts = ALWAYS,
): Decision {
  if (
    message.contentType !== ContentType.TEXT_PLAIN &&
    message.contentType !== ContentType.TEXT_MARKDOWN
  ) {
    return { position, effects: [], ignored: "not-text" };
  }
  const echoAt = position.pendingEchoes.indexOf(message.content);
  if (echoAt >= 0) {
    const pendingEchoes = position.pendingEchoes.filter((_, i) => i !== echoAt);
    return { position: { ...position, pendingEchoes }, effects: [], ignored: "echo" };
  }
  const stateId = position.waitingIn;
  const state = stateId === null ? undefined : flow.states[stateId];
  const listening = state?.wait ?? state?.answer;
  if (!listening) return { position, effects: [], ignored: "not-waiting" };
  const attrs = { ...attributes };
  const effects: FlowEffect[] = [];
  // An answer state has no otherwise: what takes no branch is a question to answer.
  let next = "otherwise" in listening ? listening.otherwise : null;
  // A carousel choice branches on the option chosen.
  const said = carouselSelection(message.content) ?? message.content;
  for (const branch of listening.branches) {
    const match = matchBranch(branch, said);
    if (match === null) continue;
    if (branch.saveAs !== undefined && match !== true) {
      attrs[branch.saveAs] = match;
      effects.push({ kind: "setAttributes", attributes: { [branch.saveAs]: match } });
    }
    next = branch.next;
    break;
  }
  if (next === null && stateId !== null && "from" in listening) {
    // Answered, and still listening for the next question.
    effects.push({
      kind: "answer",
      state: stateId,
      contentType: message.contentType,
      question: message.content,
    });
    return { position, effects };
  }
  if (next === null) return { position, effects: [], ignored: "not-waiting" };
  return run(flow, next, { ...position, waitingIn: null }, attrs, effects, facts);
}

/**
 * The bot of answer state `stateId` hands over (or failed): go on to its `handOver` state. Null
 * when the flow is no longer waiting there (a branch left it meanwhile).
 */
export function handOver(
  flow: Flow,
  position: FlowPosition,
  stateId: string,
  attributes: Record<string, string>,
  facts: FlowFacts = ALWAYS,
): Decision | null {
  const target = flow.states[stateId]?.answer?.handOver;
  if (position.waitingIn !== stateId || target === undefined) return null;
  return run(flow, target, { ...position, waitingIn: null }, { ...attributes }, [], facts);
}

/** Enter `stateId` and keep going until the flow waits or is over. */
function run(
  flow: Flow,
  stateId: string,
  start: FlowPosition,
  attrs: Record<string, string>,
  effects: FlowEffect[],
  facts: FlowFacts,
): Decision {
  const pendingEchoes = [...start.pendingEchoes];
  const finish = (waitingIn: string | null, outcome: FlowPosition["outcome"]): Decision => ({
    position: { waitingIn, pendingEchoes: pendingEchoes.slice(-MAX_PENDING_ECHOES), outcome },
    effects,
  });
  let current = stateId;
  for (let step = 0; step < MAX_STEPS_PER_TURN; step++) {
    const state = flow.states[current];
    if (!state) return finish(null, "finished");
    for (const action of state.actions ?? []) {
      for (const effect of perform(action, attrs, flow, facts)) {
        effects.push(effect);
        if (effect.kind === "message" && effect.voice === "bot" && isEchoed(effect)) {
          pendingEchoes.push(effect.content);
        }
      }
    }
    if (state.wait || state.answer) return finish(current, null);
    if (state.queue !== undefined) {
      effects.push({ kind: "queue", queue: state.queue });
      return finish(null, "queued");
    }
    if (state.end) {
      effects.push({ kind: "end" });
      return finish(null, "ended");
    }
    if (state.check) {
      const hit = state.check.conditions.find((c) => holds(c, attrs, facts));
      current = hit ? hit.next : state.check.otherwise;
      continue;
    }
    if (state.next === undefined) return finish(null, "finished");
    current = state.next;
  }
  return finish(null, "finished");
}

function holds(c: FlowCondition, attrs: Record<string, string>, facts: FlowFacts): boolean {
  if (c.open !== undefined) return c.open === facts.open;
  if (c.advisorsAvailable !== undefined) return c.advisorsAvailable === facts.advisorsAvailable;
  // Only the verified jwt's value, unless the condition opts in: a value the flow or the
  // visitor changed since is not the jwt's any more.
  const key = c.attribute ?? "";
  const value = c.unverified || facts.verified?.[key] === attrs[key] ? attrs[key] : undefined;
  const present = value !== undefined && value.trim() !== "";
  if (c.present !== undefined && c.present !== present) return false;
  if (c.equals !== undefined && c.equals !== value) return false;
  return true;
}

/** Whether the flow has a condition on advisors being available (worth a look in the store). */
export const readsAdvisors = (flow: Flow): boolean =>
  Object.values(flow.states).some((s) =>
    s.check?.conditions.some((c) => c.advisorsAvailable !== undefined),
  );

/** The widget echoes a bot's plain or markdown message unless it is the `input` sentinel. */
function isEchoed(effect: Extract<FlowEffect, { kind: "message" }>): boolean {
  return (
    (effect.contentType === ContentType.TEXT_PLAIN ||
      effect.contentType === ContentType.TEXT_MARKDOWN) &&
    effect.content !== INPUT_SENTINEL
  );
}

function perform(
  action: FlowAction,
  attrs: Record<string, string>,
  flow: Flow,
  facts: FlowFacts,
): FlowEffect[] {
  if ("say" in action) {
    return [
      message("assistant", ContentType.TEXT_MARKDOWN, fill(action.say, attrs, escapeMarkdown)),
    ];
  }
  if ("botSay" in action) {
    return [message("bot", ContentType.TEXT_PLAIN, fill(action.botSay, attrs))];
  }
  if ("input" in action) return [message("bot", ContentType.TEXT_PLAIN, INPUT_SENTINEL)];
  if ("setAttributes" in action) {
    const attributes: Record<string, string> = {};
    for (const [k, v] of Object.entries(action.setAttributes)) attributes[k] = fill(v, attrs);
    Object.assign(attrs, attributes);
    return [{ kind: "setAttributes", attributes }];
  }
  if ("template" in action) {
    const { trigger, ...template } = action.template;
    const filled = fillAll(withSlots(template, flow, facts), attrs, []) as {
      data?: { content?: { title?: unknown } };
    };
    const title = filled.data?.content?.title;
    return [
      message(
        "bot",
        ContentType.TEXT_PLAIN,
        trigger !== undefined ? fill(trigger, attrs) : String(title),
      ),
      message("bot", ContentType.INTERACTIVE_MESSAGE, JSON.stringify(filled)),
    ];
  }
  const picker = action.listPicker;
  const title = fill(picker.title, attrs, escapeMarkdown);
  const content = {
    templateType: "ListPicker",
    version: "1.0",
    data: {
      content: {
        title,
        ...(picker.subtitle !== undefined
          ? { subtitle: fill(picker.subtitle, attrs, escapeMarkdown) }
          : {}),
        // An element's title is also the reply its click sends: kept as written.
        elements: picker.elements.map((e) => ({
          title: fill(e.title, attrs),
          ...(e.subtitle !== undefined
            ? { subtitle: fill(e.subtitle, attrs, escapeMarkdown) }
            : {}),
        })),
      },
    },
  };
  return [
    message("bot", ContentType.TEXT_PLAIN, fill(picker.trigger ?? picker.title, attrs)),
    message("bot", ContentType.INTERACTIVE_MESSAGE, JSON.stringify(content)),
  ];
}

/** A TimePicker whose `timeslots` is a rule, with the slots it makes now. */
function withSlots(template: Record<string, unknown>, flow: Flow, facts: FlowFacts): unknown {
  const rule = timeslotRule(template);
  if (!rule) return template;
  const timeZone = flow.openingHours?.timeZone ?? "UTC";
  const now = facts.now ?? Date.now();
  return withTimeslots(template, makeTimeslots(rule as unknown as TimeslotRule, timeZone, now));
}

const message = (voice: "bot" | "assistant", contentType: string, content: string): FlowEffect => ({
  kind: "message",
  voice,
  contentType,
  content,
});

/**
 * Replace `{{name}}` with the attribute's value (blank when missing), passed through `escape`
 * for the content type the text lands in; values are never filled again.
 */
export function fill(
  template: string,
  attrs: Record<string, string>,
  escape: (value: string) => string = (value) => value,
): string {
  return template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) =>
    escape(attrs[name] ?? ""),
  );
}

/**
 * A value as literal markdown text (issue 57: a reported order number put a link in the bot's
 * voice): the marks of emphasis, code, links and HTML backslash-escaped (`:` too, so no bare URL
 * links itself), a heading, list or quote mark at its start too, and line breaks as spaces (no
 * new block). `A-10042` stays as it is.
 */
export function escapeMarkdown(value: string): string {
  return value
    .replace(/\s*[\r\n]+\s*/g, " ")
    .replace(/[\\`*_~[\]()<>|:]/g, "\\$&")
    .replace(
      /^(\s*)([#+-]|\d+\.)/,
      (_, space: string, mark: string) => `${space}${mark.replace(/[#+\-.]/, "\\$&")}`,
    );
}

/** A template's texts shown as markdown: its content's title and subtitle. */
const MARKDOWN_PATHS = new Set(["data.content.title", "data.content.subtitle"]);

/**
 * Every text in `value` (however deep) with its placeholders filled; the texts shown as markdown
 * (MARKDOWN_PATHS, by `path` from the template) with their values escaped.
 */
function fillAll(value: unknown, attrs: Record<string, string>, path: string[]): unknown {
  if (typeof value === "string")
    return fill(value, attrs, MARKDOWN_PATHS.has(path.join(".")) ? escapeMarkdown : undefined);
  if (Array.isArray(value)) return value.map((v) => fillAll(v, attrs, [...path, "*"]));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, fillAll(v, attrs, [...path, k])]),
    );
  }
  return value;
}

/** Lower case, single spaces, no surrounding spaces or trailing punctuation. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!?…]+$/u, "")
    .trim();
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** null: no match; true: matched; a string: matched and captured (pattern with saveAs). */
export function matchBranch(branch: FlowBranch, text: string): string | true | null {
  const norm = normalise(text);
  if (branch.equals?.some((e) => normalise(e) === norm)) return true;
  if (
    branch.contains?.some((word) =>
      new RegExp(
        `(^|[^\\p{L}\\p{N}])${escapeRegExp(normalise(word))}($|[^\\p{L}\\p{N}])`,
        "u",
      ).test(norm),
    )
  ) {
    return true;
  }
  if (branch.pattern !== undefined) {
    const m = new RegExp(branch.pattern, "iu").exec(text.trim());
    if (m) return branch.saveAs !== undefined ? (m[1] ?? m[0]) : true;
  }
  return null;
}
