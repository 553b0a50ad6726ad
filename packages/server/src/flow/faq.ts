/**
 * The built-in assistant (issue 26): answers a visitor's question from the flow's FAQ, word by
 * word. The answer is the entry sharing the most words with the question (its question and
 * keywords; small words do not count); none shares one, the FAQ's `noAnswer`.
 */
import type { FaqEntry, FlowFaq } from "./types.js";

/** Default pause between two streamed words, in milliseconds. */
export const FAQ_WORD_PAUSE_MS = 30;
/** The longest pause a flow may set between two words. */
export const FAQ_WORD_PAUSE_MAX_MS = 2_000;

/** Words that say nothing about what is asked. */
const SMALL_WORDS = new Set(
  (
    "a an and any are as at be been but by can could do does did for from get got had has have " +
    "how i i'm if in is it its it's me my of on or our please so than that the their them then " +
    "there this to too us was we what when where which who why will with would you your"
  ).split(" "),
);

/** The question's words that count: lower case, no small words, a plural's "s" dropped. */
export function meaningfulWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return new Set(
    words
      .filter((w) => !SMALL_WORDS.has(w))
      .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w)),
  );
}

const entryWords = (entry: FaqEntry): Set<string> =>
  meaningfulWords([entry.question, ...(entry.keywords ?? [])].join(" "));

/** The FAQ's answer to `question` (markdown). */
export function findAnswer(faq: FlowFaq, question: string): string {
  const asked = meaningfulWords(question);
  let best: { entry: FaqEntry; score: number } | null = null;
  for (const entry of faq.entries) {
    const known = entryWords(entry);
    let score = 0;
    for (const word of asked) if (known.has(word)) score += 1;
    if (score > 0 && (best === null || score > best.score)) best = { entry, score };
  }
  return best?.entry.answer ?? faq.noAnswer;
}

/** The text in pieces of one word each, with the spaces after it (joined, the text again). */
export const words = (text: string): string[] => text.match(/\s*\S+\s*/gy) ?? [];

/** The words of `text`, one by one, `pauseMs` apart. */
export async function* wordByWord(text: string, pauseMs: number): AsyncGenerator<string> {
  const pieces = words(text);
  for (const [i, piece] of pieces.entries()) {
    if (i > 0 && pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    yield piece;
  }
}
