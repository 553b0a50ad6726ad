// "Search conversations" (issue 60) over BENCH_CONVERSATIONS (default 100,000) stored
// conversations, on PGlite and, when it answers, PostgreSQL (TEST_DATABASE_URL, a schema of its
// own, dropped after). Each body is 60 words of a 5,000-word vocabulary (so a word is in ~1.2%
// of them), every other one also says "parcel", and each has a word of its own (t<n>). Every
// query runs through the store as the server runs it (a prepared statement: after five runs
// PostgreSQL may keep a generic plan) BENCH_RUNS times (default 30): median and slowest ms,
// and the rows of the first page. Then FLOODS more, ended last, each 100,000 characters of
// "a a a …" (the most a body keeps), searched with the longest phrase of "a"s a search may hold:
// its snippets are the costliest a page can ask for. Build first: npm run build.
import pg from "pg";
import { HISTORY_SEARCH_WORDS } from "../packages/protocol/dist/index.js";
import { listQuery } from "../packages/server/dist/history/conversations-repo.js";
import { historyFilter } from "../packages/server/dist/history/list-query.js";
import { openDb } from "../packages/server/dist/store/open-db.js";

const N = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const BATCH = 10_000;
const URL_ = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const FLOODS = 50;
const QUERIES = [
  ["no search (first page)", null],
  ["a word of one conversation", `t${Math.floor(N / 3)}`],
  ["a word of ~1.2%", "word1234"],
  ["a word of half", "parcel"],
  ["two words, both", "word1234 parcel"],
  ["a phrase", '"word2649 word2378"'],
  ["no match", "zebra"],
];
const FLOOD_QUERIES = [
  [
    `${FLOODS} floods: a phrase of ${HISTORY_SEARCH_WORDS} "a"s`,
    `"${"a ".repeat(HISTORY_SEARCH_WORDS).trim()}"`,
  ],
  [`${FLOODS} floods: "a"`, "a"],
];

async function fill(db) {
  const started = performance.now();
  for (let from = 1; from <= N; from += BATCH) {
    const to = Math.min(N, from + BATCH - 1);
    await db.query(
      `INSERT INTO contacts (contact_id, initial_contact_id, instance_id, contact_flow_id, status, created_at, ended_at)
       SELECT 'b' || g, 'b' || g, 'i', 'f', 'ended', now() - g * interval '1 minute', now() - g * interval '1 minute'
       FROM generate_series(${from}, ${to}) g`,
    );
    await db.query(
      `INSERT INTO conversations (contact_id, started_at, ended_at, customer_name, body)
       SELECT 'b' || g, now() - g * interval '1 minute', now() - g * interval '1 minute', 'Visitor ' || g,
         (SELECT string_agg('word' || (1 + (g * 7919 + k * 104729) % 5000), ' ')
          FROM generate_series(1, 60) k)
         || CASE WHEN g % 2 = 0 THEN ' parcel' ELSE '' END || ' t' || g
       FROM generate_series(${from}, ${to}) g`,
    );
  }
  await db.query("ANALYZE conversations");
  return performance.now() - started;
}

async function flood(db) {
  await db.query(
    `INSERT INTO contacts (contact_id, initial_contact_id, instance_id, contact_flow_id, status, created_at, ended_at)
     SELECT 'f' || g, 'f' || g, 'i', 'f', 'ended', now() + g * interval '1 minute', now() + g * interval '1 minute'
     FROM generate_series(1, ${FLOODS}) g`,
  );
  await db.query(
    `INSERT INTO conversations (contact_id, started_at, ended_at, customer_name, body)
     SELECT 'f' || g, now() + g * interval '1 minute', now() + g * interval '1 minute', 'Flood ' || g,
       repeat('a ', 50000)
     FROM generate_series(1, ${FLOODS}) g`,
  );
}

async function measure(db, queries) {
  const rows = [];
  for (const [name, search] of queries) {
    const { text, values } = listQuery(historyFilter(search ? { Search: search } : {}));
    const times = [];
    let found = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      found = (await db.query(text, values)).length;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    rows.push({ name, found, p50: times[Math.floor(RUNS / 2)], max: times.at(-1) });
  }
  return rows;
}

async function engine(label, open, close) {
  const db = await open();
  try {
    const fillMs = await fill(db);
    console.log(
      `\n### ${label}: ${N.toLocaleString("en")} conversations stored in ${(fillMs / 1000).toFixed(1)} s`,
    );
    console.log("| query | rows (page ≤ 51) | median ms | slowest ms |\n|---|---|---|---|");
    const print = (r) =>
      console.log(`| ${r.name} | ${r.found} | ${r.p50.toFixed(1)} | ${r.max.toFixed(1)} |`);
    for (const r of await measure(db, QUERIES)) print(r);
    await flood(db);
    for (const r of await measure(db, FLOOD_QUERIES)) print(r);
  } finally {
    await db.close();
    await close();
  }
}

await engine(
  "PGlite",
  () => openDb({ dataDir: "memory" }),
  async () => {},
);

const schema = `bench_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: URL_ });
try {
  await admin.connect();
} catch {
  console.log("\n(PostgreSQL at TEST_DATABASE_URL does not answer: PGlite only.)");
  process.exit(0);
}
await admin.query(`CREATE SCHEMA ${schema}`);
const url = new URL(URL_);
url.searchParams.set("options", `-c search_path=${schema}`);
await engine(
  "PostgreSQL",
  () => openDb({ databaseUrl: url.toString(), dataDir: "memory" }),
  async () => {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  },
);
