/**
 * The five interactive templates the hosted widget renders (docs/protocol.md §6.2–6.6), checked
 * with the hosted widget's limits: what a bot or a flow may send, and what clients can trust.
 */
import type { InteractiveElement, ReplyMessage } from "./interactive.js";
import { isObject } from "./items.js";

export const TemplateLimits = {
  ListPicker: 6,
  Panel: 10,
  QuickReply: 6,
  TimePicker: 20,
  Carousel: 5,
  /** Titles and subtitles are cut here by the hosted widget; we refuse longer ones. */
  TITLE_MAX: 400,
  /** A quick-reply option's longest title. */
  QUICK_REPLY_OPTION_MAX: 200,
} as const;

interface ListContent {
  title: string;
  subtitle?: string;
  imageType?: "URL";
  imageData?: string;
  imageDescription?: string;
  elements: InteractiveElement[];
}

export interface TimeSlot {
  /** ISO 8601 with an offset, e.g. 2026-11-30T09:00+00:00. */
  date: string;
  /** Minutes. */
  duration: number;
}

interface Envelope<T extends string, C> {
  templateType: T;
  version: "1.0";
  data: { content: C; replyMessage?: ReplyMessage };
}

export type ListTemplate = Envelope<"ListPicker" | "Panel" | "QuickReply", ListContent>;
export type TimePickerTemplate = Envelope<
  "TimePicker",
  { title: string; subtitle?: string; timeZoneOffset?: number; timeslots: TimeSlot[] }
>;
export type CarouselTemplate = Envelope<
  "Carousel",
  {
    title: string;
    elements: (Envelope<"ListPicker" | "Panel", ListContent> & { templateIdentifier: string })[];
  }
>;
export type Template = ListTemplate | TimePickerTemplate | CarouselTemplate;

export type TemplateCheck = { template: Template } | { problem: string };

type Json = Record<string, unknown>;
const isTitle = (v: unknown, max: number = TemplateLimits.TITLE_MAX): v is string =>
  typeof v === "string" && v.trim() !== "" && v.length <= max;
/** ISO 8601 date and time with an offset (Z or ±hh:mm). */
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Whether `text` is a TimePicker slot's `date`: an ISO 8601 date and time with an offset. */
export const isSlotDate = (text: string): boolean =>
  WITH_OFFSET.test(text) && !Number.isNaN(Date.parse(text));

class Problem extends Error {}
const fail = (what: string): never => {
  throw new Problem(what);
};

/** An image is only ever fetched from an https URL. */
function checkImage(where: string, v: Json): void {
  if (v.imageData === undefined && v.imageType === undefined) return;
  if (v.imageType !== "URL") fail(`${where}.imageType must be "URL"`);
  const url =
    typeof v.imageData === "string" && URL.canParse(v.imageData) ? new URL(v.imageData) : null;
  if (url?.protocol !== "https:") fail(`${where}.imageData must be an https URL`);
}

function checkTitles(where: string, v: Json, titleMax?: number): void {
  if (!isTitle(v.title, titleMax))
    fail(
      `${where}.title must be a text of 1 to ${titleMax ?? TemplateLimits.TITLE_MAX} characters`,
    );
  if (v.subtitle !== undefined && !isTitle(v.subtitle))
    fail(`${where}.subtitle must be a text of 1 to ${TemplateLimits.TITLE_MAX} characters`);
}

function checkList(where: string, type: "ListPicker" | "Panel" | "QuickReply", c: Json): void {
  checkTitles(where, c);
  checkImage(where, c);
  const max = TemplateLimits[type];
  if (!Array.isArray(c.elements) || c.elements.length === 0 || c.elements.length > max)
    fail(`${where}.elements must hold 1 to ${max} elements`);
  (c.elements as unknown[]).forEach((e, i) => {
    const at = `${where}.elements[${i}]`;
    if (!isObject(e)) return fail(`${at} must be an object`);
    checkTitles(at, e, type === "QuickReply" ? TemplateLimits.QUICK_REPLY_OPTION_MAX : undefined);
    checkImage(at, e);
  });
}

function checkEnvelope(
  where: string,
  v: unknown,
  types: readonly string[],
): { type: string; content: Json } {
  if (!isObject(v)) return fail(`${where} must be an object`);
  if (typeof v.templateType !== "string" || !types.includes(v.templateType))
    fail(`${where}.templateType must be one of ${types.join(", ")}`);
  if (v.version !== "1.0") fail(`${where}.version must be "1.0"`);
  if (!isObject(v.data) || !isObject(v.data.content))
    return fail(`${where}.data.content must be an object`);
  if (v.data.replyMessage !== undefined) {
    if (!isObject(v.data.replyMessage)) fail(`${where}.data.replyMessage must be an object`);
    else checkTitles(`${where}.data.replyMessage`, v.data.replyMessage);
  }
  return { type: v.templateType as string, content: v.data.content };
}

const TYPES = ["ListPicker", "Panel", "QuickReply", "TimePicker", "Carousel"] as const;

/** The template in an interactive message's Content, or the first thing wrong with it. */
export function checkTemplate(content: string): TemplateCheck {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { problem: "not valid JSON" };
  }
  try {
    const { type, content: c } = checkEnvelope("template", value, TYPES);
    const where = "template.data.content";
    if (type === "TimePicker") {
      checkTitles(where, c);
      const slots = c.timeslots;
      if (!Array.isArray(slots) || slots.length === 0 || slots.length > TemplateLimits.TimePicker)
        fail(`${where}.timeslots must hold 1 to ${TemplateLimits.TimePicker} slots`);
      (slots as unknown[]).forEach((s, i) => {
        const at = `${where}.timeslots[${i}]`;
        if (!isObject(s) || typeof s.date !== "string" || !isSlotDate(s.date))
          fail(`${at}.date must be an ISO 8601 date and time with an offset`);
        const { duration } = s as Json;
        if (!Number.isInteger(duration) || (duration as number) <= 0)
          fail(`${at}.duration must be a whole number of minutes`);
      });
      if (c.timeZoneOffset !== undefined && !Number.isInteger(c.timeZoneOffset))
        fail(`${where}.timeZoneOffset must be a whole number of minutes`);
    } else if (type === "Carousel") {
      if (!isTitle(c.title))
        fail(`${where}.title must be a text of 1 to ${TemplateLimits.TITLE_MAX} characters`);
      const cards = c.elements;
      if (!Array.isArray(cards) || cards.length === 0 || cards.length > TemplateLimits.Carousel)
        fail(`${where}.elements must hold 1 to ${TemplateLimits.Carousel} templates`);
      const ids = new Set<string>();
      (cards as unknown[]).forEach((card, i) => {
        const at = `${where}.elements[${i}]`;
        const inner = checkEnvelope(at, card, ["ListPicker", "Panel"]);
        checkList(`${at}.data.content`, inner.type as "ListPicker" | "Panel", inner.content);
        const id = (card as Json).templateIdentifier;
        if (typeof id !== "string" || id === "" || ids.has(id))
          fail(`${at}.templateIdentifier must be a text unique in the carousel`);
        ids.add(id as string);
      });
    } else {
      checkList(where, type as "ListPicker" | "Panel" | "QuickReply", c);
    }
    return { template: value as Template };
  } catch (error) {
    if (error instanceof Problem) return { problem: error.message };
    throw error;
  }
}

/**
 * What a visitor chose in a carousel, read from the message the hosted widget sends for it
 * (docs/protocol.md §6.8: `{"templateIdentifier","listTitle","selectionText"}` as text); null for
 * any other message.
 */
export function carouselSelection(text: string): string | null {
  if (!text.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!isObject(value)) return null;
    const { templateIdentifier, selectionText } = value;
    return typeof templateIdentifier === "string" && typeof selectionText === "string"
      ? selectionText
      : null;
  } catch {
    return null;
  }
}
