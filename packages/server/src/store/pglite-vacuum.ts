import type { PGlite } from "@electric-sql/pglite";

/**
 * How often the embedded store vacuums its next table: each of its 18 tables comes round every
 * 18 s, and a run takes as long as the table's changes since its last (at 2,000 msgs/s the items
 * took 42–50 ms, an unchanged table 3–5 ms).
 */
export const VACUUM_EVERY_MS = 1_000;

/**
 * The embedded store's autovacuum, which PGlite lacks (it runs PostgreSQL single-user, without
 * background workers). Without it nothing is ever reclaimed: rows the sweeps delete (ClientToken
 * records, expired tokens, attachment chunks, telemetry) and contacts' old row versions keep
 * their pages, and a table that sheds as much as it gains grows by all it ever held (5,000 rows
 * kept while 150,000 came and went: 50 MB with its indexes, 3.5 MB vacuumed, issue 27); no row
 * is ever frozen either, so transaction ids would run out after about two billion commits.
 *
 * Each `next()` vacuums one table, the tables taken in turn by name: PGlite runs on the
 * server's event loop, so one table's run at a time keeps each pause short (the whole store of
 * 30,000 messages, never vacuumed, took 170–400 ms at once; its items alone 141 ms).
 */
export class Vacuum {
  /** The table vacuumed last ("" before the first). */
  #last = "";

  constructor(private readonly pg: Pick<PGlite, "exec">) {}

  /**
   * Vacuums the table after the last one by name (the first after the last); its name, or null
   * when there is none. Simple queries only: nothing of it is a prepared statement's bind.
   */
  async next(): Promise<string | null> {
    const last = this.#last.replaceAll("'", "''");
    const [result] = await this.pg.exec(
      `SELECT relname AS name, quote_ident(relname) AS quoted FROM pg_class
       WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace
       ORDER BY relname <= '${last}'::name, relname LIMIT 1`,
    );
    const table = result?.rows[0] as { name: string; quoted: string } | undefined;
    if (!table) return null;
    this.#last = table.name;
    await this.pg.exec(`VACUUM ${table.quoted}`);
    return table.quoted;
  }
}
