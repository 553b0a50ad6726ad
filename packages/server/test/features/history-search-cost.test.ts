/**
 * Issue 60: what one history search may cost, on both stores (history/search.ts). A visitor can
 * fill a conversation with "a a a …" and an advisor search a long phrase of "a"s: the snippet
 * is made from SNIPPET_TEXT characters around the first searched word, not from the whole body
 * (before, one page stalled PGlite's event loop 14.6 s and took a PostgreSQL backend to 2.6 GB);
 * a search of more than HISTORY_SEARCH_WORDS words, of only words left out, or one the parser
 * cannot read (runs of `-`) is a clear 400, never a 500; on PostgreSQL the page's statement is
 * stopped after its timeout. The cost itself is measured in bench/history-search.mjs.
 */
import { HISTORY_SEARCH_WORDS, HistoryApiPath, type HistoryResponse } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SNIPPET_TEXT, withSearchTimeout } from "../../src/history/search.js";
import type { Db } from "../../src/store/db.js";
import { ENGINES } from "../support/databases.js";
import type { TestServer } from "../support/server.js";
import { http, signIn, startFeatureServer, type Advisor } from "./helpers.js";

const BODY_MAX = 100_000;
/** "a a a …" to the longest body a conversation keeps. */
const flood = (chars: number) => "a ".repeat(chars / 2).slice(0, chars);

describe.each(ENGINES)("what a history search may cost (%s)", (engine) => {
  let server: TestServer;
  let sam: Advisor;
  let db: Db;

  const list = (query: string) =>
    http<HistoryResponse & { message?: string }>(server.url + HistoryApiPath.List + query, {
      headers: { authorization: `Bearer ${sam.token}` },
    });
  const search = (words: string) => list(`?Search=${encodeURIComponent(words)}`);

  /** Conversations with these bodies, ended a second apart (the first is listed last). */
  async function conversations(prefix: string, bodies: string[], year = 2002): Promise<void> {
    for (const [i, body] of bodies.entries()) {
      const id = `${prefix}-${i}`;
      const at = new Date(Date.UTC(year, 0, 1, 0, 0, i)).toISOString();
      await db.query(
        `INSERT INTO contacts (contact_id, initial_contact_id, instance_id, contact_flow_id, status, created_at, ended_at)
         VALUES ($1, $1, 'i', 'f', 'ended', $2, $2)`,
        [id, at],
      );
      await db.query(
        `INSERT INTO conversations (contact_id, started_at, ended_at, customer_name, body)
         VALUES ($1, $2, $2, $3, $4)`,
        [id, at, `Visitor ${prefix} ${i}`, body],
      );
    }
  }

  beforeAll(async () => {
    server = await startFeatureServer(engine, {});
    sam = await signIn(server);
    db = server.built.deps.db;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("the snippet comes from the text around the first searched word, however deep in the body", async () => {
    const deep = `${flood(60_000)} the parcel went to Lyon instead ${flood(BODY_MAX - 60_100)}`;
    await conversations("deep", [deep, `where is my parcel? ${flood(BODY_MAX - 30)}`]);
    // (Not a phrase: a body's words past the 16,383rd share one position in its document.)
    for (const words of ["Lyon", "-Berlin LYON", "Berlin or lyon", "zzz or Lyon"]) {
      const r = await search(words);
      expect(r.status, words).toBe(200);
      const [row] = r.body.Conversations;
      expect(
        r.body.Conversations.map((c) => c.ContactId),
        words,
      ).toEqual(["deep-0"]);
      expect(row!.Snippet, words).toMatch(/<mark>Lyon<\/mark>/);
      expect(row!.Snippet!.replace(/<\/?mark>/g, "").length).toBeLessThan(SNIPPET_TEXT);
    }
    // A match at the start, in a body of the most: its snippet, and the other's, from one page.
    const both = await search("parcel");
    expect(both.body.Conversations.map((c) => c.ContactId)).toEqual(["deep-1", "deep-0"]);
    expect(both.body.Conversations[0]!.Snippet).toMatch(/^where is my <mark>parcel<\/mark>/);
    expect(both.body.Conversations[1]!.Snippet).toMatch(/<mark>parcel<\/mark> went to Lyon/);
  });

  it(`a page of floods searched with a phrase of ${HISTORY_SEARCH_WORDS} words answers, each snippet from its window`, async () => {
    await conversations(
      "flood",
      Array.from({ length: 50 }, () => flood(BODY_MAX)),
      2003,
    );
    const phrase = `"${Array.from({ length: HISTORY_SEARCH_WORDS }, () => "a").join(" ")}"`;
    const r = await search(phrase);
    expect(r.status).toBe(200);
    expect(r.body.Conversations).toHaveLength(50);
    for (const row of r.body.Conversations) {
      expect(row.Snippet).toMatch(/^(<mark>a<\/mark> ?)+$/);
      expect(row.Snippet!.length).toBeLessThan(SNIPPET_TEXT);
    }
  });

  it("more words than a search may hold, only words left out, or runs of - : a clear 400", async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
    expect((await search(words(HISTORY_SEARCH_WORDS))).status).toBe(200);
    expect((await search(`"${words(HISTORY_SEARCH_WORDS)}"`)).status).toBe(200);
    for (const many of [
      words(HISTORY_SEARCH_WORDS + 1),
      `"${words(HISTORY_SEARCH_WORDS + 1)}"`,
      Array.from({ length: HISTORY_SEARCH_WORDS + 1 }, (_, i) => `w${i}`).join("-"),
      `${words(HISTORY_SEARCH_WORDS)} -left`,
    ]) {
      const r = await search(many);
      expect(r.status, many).toBe(400);
      expect(r.body.message).toBe(`Search for at most ${HISTORY_SEARCH_WORDS} words.`);
    }
    for (const onlyOut of ["-refund", "-refund -parcel", "-or", "a or -b"]) {
      const r = await search(onlyOut);
      expect(r.status, onlyOut).toBe(400);
      expect(r.body.message).toBe(
        "Search needs a word to find, not only words to leave out (-word).",
      );
    }
    for (const dashes of ["-".repeat(33), `${"-".repeat(40)}a`, "- ".repeat(40)]) {
      const r = await search(dashes);
      expect(r.status, dashes).toBe(400);
      expect(r.body.message).toBe(
        "Search cannot be read: write words, not runs of - or other signs.",
      );
    }
    // No word at all (signs only) finds nothing, as before.
    const none = await search("!!! ((( '");
    expect(none.status).toBe(200);
    expect(none.body.Conversations).toEqual([]);
  });

  it.runIf(engine === "postgres")(
    "on PostgreSQL the page's statement stops at its timeout: a clear 400, the session's own timeout untouched",
    async () => {
      const seen = await withSearchTimeout(db, (tx) =>
        tx.query<{ statement_timeout: string }>("SHOW statement_timeout"),
      );
      expect(seen[0]!.statement_timeout).toBe("5s");
      await expect(
        withSearchTimeout(db, (tx) => tx.query("SELECT pg_sleep(30)"), 50),
      ).rejects.toMatchObject({
        type: "ValidationException",
        message: "This search takes too long: add words, dates or an advisor to narrow it.",
      });
      const after = await db.query<{ statement_timeout: string }>("SHOW statement_timeout");
      expect(after[0]!.statement_timeout).toBe("0");
    },
  );
});
