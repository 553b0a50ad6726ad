/**
 * What a history search may cost (issue 60). A search is parsed as web-search syntax
 * (`websearch_to_tsquery('simple')`: "a phrase", -without, or) and checked before the page is
 * read: it must hold a word to find (a search of only -words reads every conversation), at
 * most HISTORY_SEARCH_WORDS of them (a long phrase makes the snippet's cost grow far faster
 * than the text), and parse at all (runs of `-` overflow the parser's stack). The snippet is
 * made from SNIPPET_TEXT characters of the body around the first place a searched word
 * appears, never from the whole body (up to 100,000 characters); on PostgreSQL the page's
 * statement stops after HISTORY_STATEMENT_MS.
 */
import { HISTORY_SEARCH_WORDS } from "@chat-widget/protocol";
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";

/** The characters of a body the snippet is made from, and how many come before the anchor. */
export const SNIPPET_TEXT = 1_000;
export const SNIPPET_BEFORE = 400;
/** The history page's statement on PostgreSQL (PGlite has no statement timeout). */
export const HISTORY_STATEMENT_MS = 5_000;

/** PostgreSQL's codes: an internal error (the parser's stack), and a statement cancelled. */
const INTERNAL = "XX000";
const CANCELLED = "57014";
const code = (error: unknown) => (error as { code?: unknown } | null)?.code;

/**
 * The search, checked: a clear 400 when it cannot be run or would read every conversation.
 * (A search of no word at all — only punctuation — finds nothing, as the store answers.)
 */
export async function checkSearch(db: Db, words: string): Promise<void> {
  let parsed: { nodes: number; tree: string } | undefined;
  try {
    [parsed] = await db.query<{ nodes: number; tree: string }>(
      `SELECT numnode(q) AS nodes, querytree(q) AS tree
       FROM websearch_to_tsquery('simple', $1) q`,
      [words],
    );
  } catch (error) {
    if (code(error) === INTERNAL)
      throw Errors.validation("Search cannot be read: write words, not runs of - or other signs.");
    throw error;
  }
  if (!parsed || parsed.nodes === 0) return;
  // n words joined by n - 1 operators; a word left out (-word) counts its "not" too.
  if (parsed.nodes > 2 * HISTORY_SEARCH_WORDS)
    throw Errors.validation(`Search for at most ${HISTORY_SEARCH_WORDS} words.`);
  if (parsed.tree === "T")
    throw Errors.validation("Search needs a word to find, not only words to leave out (-word).");
}

/** The words the search looks for (not those -left out, not "or"), as typed. */
export function wordsToMark(words: string): string {
  const found = new Set<string>();
  for (const token of words.split(/[\s"]+/u)) {
    const word = token.replace(/^[^\p{L}\p{N}-]+/u, "");
    if (word === "" || word.startsWith("-") || word.toLowerCase() === "or") continue;
    found.add(word);
  }
  return [...found].join(" ");
}

/**
 * The snippet of `body` for the words `marked` (a text parameter): each of their lexemes,
 * marked wherever it stands ('a' | 'b' | …, taken literally: never a phrase, whose headline
 * costs PostgreSQL 15 seconds over a thousand characters of "a a a …"), in SNIPPET_TEXT
 * characters from SNIPPET_BEFORE before the first place one of them has in the body (the
 * body's start when none is found as it is written).
 */
export function snippetSql(body: string, marked: string): string {
  const lexemes = `unnest(tsvector_to_array(to_tsvector('simple', ${marked})))`;
  // Each lexeme quoted for tsquery's input: \ and ' escaped with a backslash.
  const quoted = `'''' || replace(replace(l, '\\', '\\\\'), '''', '\\''') || ''''`;
  const query = `(SELECT coalesce(string_agg(${quoted}, ' | '), '')::tsquery FROM ${lexemes} l)`;
  const at = `(SELECT coalesce(min(s.at), 1) FROM (
      SELECT strpos(b.lowered, l) AS at FROM (SELECT lower(${body}) AS lowered) b, ${lexemes} l
    ) s WHERE s.at > 0)`;
  const text = `substr(${body}, greatest(1, ${at} - ${SNIPPET_BEFORE}), ${SNIPPET_TEXT})`;
  return `ts_headline('simple', ${text}, ${query},
    'StartSel=<mark>, StopSel=</mark>, MaxWords=24, MinWords=8, MaxFragments=1')`;
}

/**
 * `fn` with the history's statement timeout on PostgreSQL, where a statement cancelled for it
 * is a 400 telling how to narrow the search; on PGlite, `fn` as it is.
 */
export async function withSearchTimeout<T>(
  db: Db,
  fn: (db: Db) => Promise<T>,
  ms = HISTORY_STATEMENT_MS,
): Promise<T> {
  if (db.embedded) return fn(db);
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`SET LOCAL statement_timeout = ${Math.round(ms)}`);
      return fn(tx);
    });
  } catch (error) {
    if (code(error) === CANCELLED)
      throw Errors.validation(
        "This search takes too long: add words, dates or an advisor to narrow it.",
      );
    throw error;
  }
}
