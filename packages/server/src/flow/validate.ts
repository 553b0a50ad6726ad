/** Checks a flow file's JSON before the server uses it: shape, state references, patterns. */
import { checkTemplate, isObject, LIST_PICKER_MAX_ELEMENTS, Limits } from "@chat-widget/protocol";
import { ENV_PLACEHOLDER } from "./bot-client.js";
import { FAQ_WORD_PAUSE_MAX_MS, meaningfulWords } from "./faq.js";
import { WEEKDAYS, isTimeZone, parseRange } from "./opening-hours.js";
import {
  makeTimeslots,
  timeslotRule,
  timeslotRuleProblem,
  withTimeslots,
  type TimeslotRule,
} from "./timeslots.js";
import type { Flow, FlowAction, FlowState } from "./types.js";

export class FlowFileError extends Error {
  override name = "FlowFileError";
}

type Json = Record<string, unknown>;
const isText = (v: unknown): v is string => typeof v === "string" && v.length > 0;
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText);

/** Returns the flow, or throws a FlowFileError listing every problem found. */
export function validateFlow(value: unknown, source = "flow"): Flow {
  const problems: string[] = [];
  const fail = (where: string, what: string) => problems.push(`${where}: ${what}`);
  if (!isObject(value)) throw new FlowFileError(`${source}: a flow must be a JSON object`);
  if (!isText(value.id)) fail("id", "must be a non-empty string");
  if (!isText(value.assistantName)) fail("assistantName", "must be a non-empty string");
  if (value.botName !== undefined && !isText(value.botName))
    fail("botName", "must be a non-empty string");
  if (!isText(value.start)) fail("start", "must name a state");
  if (!isObject(value.states)) {
    fail("states", "must be an object of states");
  } else {
    const names = new Set(Object.keys(value.states));
    if (isText(value.start) && !names.has(value.start))
      fail("start", `no state named "${value.start}"`);
    const ref = (where: string, target: unknown) => {
      if (!isText(target) || !names.has(target)) fail(where, `no state named "${String(target)}"`);
    };
    for (const [name, state] of Object.entries(value.states)) {
      checkState(
        `states.${name}`,
        state,
        ref,
        fail,
        value.openingHours !== undefined,
        value.faq !== undefined,
      );
    }
  }
  if (value.openingHours !== undefined) checkHours(value.openingHours, fail);
  if (value.queuePosition !== undefined && !isText(value.queuePosition))
    fail("queuePosition", "must be a non-empty string");
  if (value.faq !== undefined) checkFaq(value.faq, fail);
  if (problems.length > 0) throw new FlowFileError(`${source}: ${problems.join("; ")}`);
  return value as unknown as Flow;
}

function checkState(
  where: string,
  state: unknown,
  ref: (where: string, target: unknown) => void,
  fail: (where: string, what: string) => void,
  hasHours: boolean,
  hasFaq: boolean,
): void {
  if (!isObject(state)) return void fail(where, "must be an object");
  const exits = (["next", "check", "wait", "answer", "queue", "end"] as const).filter(
    (k) => state[k] !== undefined,
  );
  if (exits.length > 1) fail(where, `has more than one way out (${exits.join(", ")})`);
  if (state.actions !== undefined) {
    if (!Array.isArray(state.actions)) fail(`${where}.actions`, "must be an array");
    else state.actions.forEach((a, i) => checkAction(`${where}.actions[${i}]`, a, fail));
  }
  const s = state as FlowState & Json;
  if (s.next !== undefined) ref(`${where}.next`, s.next);
  if (s.queue !== undefined && !isText(s.queue)) fail(`${where}.queue`, "must name a queue");
  if (s.end !== undefined && s.end !== true) fail(`${where}.end`, "must be true");
  if (s.check !== undefined) {
    const check = s.check as unknown;
    if (!isObject(check) || !Array.isArray(check.conditions)) {
      fail(`${where}.check`, "must have conditions and otherwise");
    } else {
      ref(`${where}.check.otherwise`, check.otherwise);
      check.conditions.forEach((c: unknown, i: number) => {
        const at = `${where}.check.conditions[${i}]`;
        if (!isObject(c)) return void fail(at, "must be an object");
        const kinds = (["attribute", "open", "advisorsAvailable"] as const).filter(
          (k) => c[k] !== undefined,
        );
        if (kinds.length !== 1)
          fail(at, "must have exactly one of attribute, open, advisorsAvailable");
        if (c.attribute !== undefined && !isText(c.attribute))
          fail(at, "attribute must name an attribute");
        for (const k of ["open", "advisorsAvailable"] as const)
          if (c[k] !== undefined && typeof c[k] !== "boolean") fail(at, `${k} must be a boolean`);
        if (c.open !== undefined && !hasHours) fail(at, "open needs the flow's openingHours");
        if (c.present !== undefined && typeof c.present !== "boolean")
          fail(at, "present must be a boolean");
        if (c.equals !== undefined && typeof c.equals !== "string")
          fail(at, "equals must be a string");
        if (c.unverified !== undefined && (typeof c.unverified !== "boolean" || !c.attribute))
          fail(at, "unverified must be a boolean, on an attribute condition");
        ref(`${at}.next`, c.next);
      });
    }
  }
  if (s.wait !== undefined) {
    const wait = s.wait as unknown;
    if (!isObject(wait) || !Array.isArray(wait.branches)) {
      fail(`${where}.wait`, "must have branches and otherwise");
    } else {
      ref(`${where}.wait.otherwise`, wait.otherwise);
      checkBranches(`${where}.wait`, wait.branches, ref, fail);
    }
  }
  if (s.answer !== undefined) {
    const answer = s.answer as unknown;
    if (!isObject(answer) || !Array.isArray(answer.branches)) {
      fail(`${where}.answer`, "must have from and branches");
    } else {
      const at = `${where}.answer`;
      if (answer.from === "faq") {
        if (!hasFaq) fail(`${at}.from`, "the flow has no faq");
        if (answer.branches.length === 0)
          fail(`${at}.branches`, "must hold a way out (the FAQ never hands over)");
        for (const k of ["bot", "handOver", "failure"] as const)
          if (answer[k] !== undefined) fail(`${at}.${k}`, 'goes with from "bot"');
      } else if (answer.from === "bot") {
        checkBot(`${at}.bot`, answer.bot, fail);
        ref(`${at}.handOver`, answer.handOver);
        if (
          answer.failure !== undefined &&
          !(isText(answer.failure) && answer.failure.length <= Limits.TEXT_CONTENT_MAX)
        )
          fail(`${at}.failure`, `must be a text of at most ${Limits.TEXT_CONTENT_MAX} characters`);
      } else {
        fail(`${at}.from`, 'must be "faq" or "bot"');
      }
      checkBranches(at, answer.branches, ref, fail);
    }
  }
}

function checkBranches(
  where: string,
  branches: unknown[],
  ref: (where: string, target: unknown) => void,
  fail: (where: string, what: string) => void,
): void {
  branches.forEach((b: unknown, i: number) => {
    const at = `${where}.branches[${i}]`;
    if (!isObject(b)) return void fail(at, "must be an object");
    if (b.equals === undefined && b.contains === undefined && b.pattern === undefined) {
      fail(at, "needs equals, contains or pattern");
    }
    if (b.equals !== undefined && !isStringList(b.equals))
      fail(`${at}.equals`, "must be a list of texts");
    if (b.contains !== undefined && !isStringList(b.contains))
      fail(`${at}.contains`, "must be a list of texts");
    if (b.pattern !== undefined && !isText(b.pattern)) fail(`${at}.pattern`, "must be a text");
    else if (b.pattern !== undefined) {
      try {
        new RegExp(b.pattern, "iu");
      } catch {
        fail(`${at}.pattern`, "is not a valid regular expression");
      }
    }
    if (b.saveAs !== undefined && (!isText(b.saveAs) || b.pattern === undefined)) {
      fail(`${at}.saveAs`, "must name an attribute and go with a pattern");
    }
    ref(`${at}.next`, b.next);
  });
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function checkBot(
  where: string,
  bot: unknown,
  fail: (where: string, what: string) => void,
  env: Record<string, string | undefined> = process.env,
): void {
  if (!isObject(bot)) return void fail(where, "must be an object with a url");
  const url = isText(bot.url) && URL.canParse(bot.url) ? new URL(bot.url) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    fail(`${where}.url`, "must be an http or https URL");
  const whole = (v: unknown, min: number, max: number) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
  if (bot.timeoutMs !== undefined && !whole(bot.timeoutMs, 100, 120_000))
    fail(`${where}.timeoutMs`, "must be a whole number from 100 to 120000");
  if (bot.maxAnswerMs !== undefined && !whole(bot.maxAnswerMs, 1_000, 600_000))
    fail(`${where}.maxAnswerMs`, "must be a whole number from 1000 to 600000");
  if (bot.headers !== undefined) {
    const headers = bot.headers;
    if (
      !isObject(headers) ||
      !Object.entries(headers).every(([k, v]) => HEADER_NAME.test(k) && typeof v === "string")
    )
      fail(`${where}.headers`, "must map header names to texts");
    else
      for (const [name, value] of Object.entries(headers))
        for (const [, variable] of (value as string).matchAll(ENV_PLACEHOLDER))
          if (env[variable!] === undefined)
            fail(`${where}.headers.${name}`, `the environment variable ${variable} is not set`);
  }
}

function checkFaq(faq: unknown, fail: (where: string, what: string) => void): void {
  if (!isObject(faq) || !Array.isArray(faq.entries) || faq.entries.length === 0)
    return void fail("faq", "must have entries and noAnswer");
  const isAnswer = (v: unknown) => isText(v) && v.length <= Limits.TEXT_CONTENT_MAX;
  if (!isAnswer(faq.noAnswer))
    fail("faq.noAnswer", `must be a text of at most ${Limits.TEXT_CONTENT_MAX} characters`);
  if (
    faq.wordPauseMs !== undefined &&
    !(
      Number.isInteger(faq.wordPauseMs) &&
      (faq.wordPauseMs as number) >= 0 &&
      (faq.wordPauseMs as number) <= FAQ_WORD_PAUSE_MAX_MS
    )
  )
    fail("faq.wordPauseMs", `must be a whole number from 0 to ${FAQ_WORD_PAUSE_MAX_MS}`);
  faq.entries.forEach((e: unknown, i: number) => {
    const at = `faq.entries[${i}]`;
    if (!isObject(e)) return void fail(at, "must be an object");
    if (!isText(e.question)) fail(`${at}.question`, "must be a non-empty string");
    if (!isAnswer(e.answer))
      fail(`${at}.answer`, `must be a text of at most ${Limits.TEXT_CONTENT_MAX} characters`);
    if (e.keywords !== undefined && !isStringList(e.keywords))
      fail(`${at}.keywords`, "must be a list of texts");
    else
      for (const k of e.keywords ?? [])
        if (meaningfulWords(k).size === 0)
          fail(`${at}.keywords`, `"${k}" has no word that counts (only small words)`);
  });
}

function checkHours(hours: unknown, fail: (where: string, what: string) => void): void {
  if (!isObject(hours) || !isObject(hours.days))
    return void fail("openingHours", "must have a timeZone and days");
  if (!isText(hours.timeZone) || !isTimeZone(hours.timeZone))
    fail("openingHours.timeZone", "must be a known time zone, e.g. Europe/London");
  for (const [day, range] of Object.entries(hours.days)) {
    const at = `openingHours.days.${day}`;
    if (!(WEEKDAYS as readonly string[]).includes(day))
      fail(at, `must be one of ${WEEKDAYS.join(", ")}`);
    else if (typeof range !== "string" || !parseRange(range))
      fail(at, 'must be a range such as "09:00-17:30"');
  }
}

/**
 * A TimePicker whose `timeslots` is a rule: the rule checked, and slots it could make in its
 * place (null when the rule is wrong: that was said).
 */
function withSampleSlots(
  where: string,
  template: Record<string, unknown>,
  fail: (where: string, what: string) => void,
): unknown {
  const rule = timeslotRule(template);
  if (!rule) return template;
  const problem = timeslotRuleProblem(rule);
  if (problem) {
    fail(where, problem);
    return null;
  }
  return withTimeslots(template, makeTimeslots(rule as unknown as TimeslotRule, "UTC", 0));
}

function checkAction(
  where: string,
  action: unknown,
  fail: (where: string, what: string) => void,
): void {
  if (!isObject(action) || Object.keys(action).length !== 1) {
    return void fail(
      where,
      "must be an object with exactly one of say, botSay, listPicker, template, input, setAttributes",
    );
  }
  const a = action as FlowAction & Json;
  if ("say" in a || "botSay" in a) {
    const text = "say" in a ? a.say : a.botSay;
    if (!isText(text)) fail(where, "text must be a non-empty string");
    else if (text.length > Limits.TEXT_CONTENT_MAX)
      fail(where, `text is longer than ${Limits.TEXT_CONTENT_MAX}`);
  } else if ("input" in a) {
    if (a.input !== true) fail(where, "input must be true");
  } else if ("setAttributes" in a) {
    const attrs = a.setAttributes;
    if (!isObject(attrs) || !Object.values(attrs).every((v) => typeof v === "string")) {
      fail(where, "setAttributes must map names to strings");
    }
  } else if ("template" in a) {
    const t: unknown = a.template;
    if (!isObject(t)) return void fail(where, "template must be an object");
    const { trigger, ...template } = t;
    if (trigger !== undefined && !isText(trigger))
      fail(where, "trigger must be a non-empty string");
    const sample = withSampleSlots(where, template, fail);
    const checked = sample === null ? null : checkTemplate(JSON.stringify(sample));
    if (checked && "problem" in checked) fail(where, checked.problem);
  } else if ("listPicker" in a) {
    const p = a.listPicker as unknown;
    if (!isObject(p) || !isText(p.title)) return void fail(where, "listPicker needs a title");
    if (!Array.isArray(p.elements) || p.elements.length === 0) {
      fail(where, "listPicker needs elements");
    } else if (p.elements.length > LIST_PICKER_MAX_ELEMENTS) {
      fail(where, `listPicker has more than ${LIST_PICKER_MAX_ELEMENTS} elements`);
    } else if (!p.elements.every((e) => isObject(e) && isText(e.title))) {
      fail(where, "every listPicker element needs a title");
    }
    if (p.trigger !== undefined && !isText(p.trigger))
      fail(where, "trigger must be a non-empty string");
  } else {
    fail(where, "unknown action");
  }
}
