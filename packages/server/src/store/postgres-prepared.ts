import type pg from "pg";
import { MAX_PREPARED } from "./prepared.js";

/**
 * Names for the statements sent to PostgreSQL, so that each pooled connection parses a text
 * once and runs it again from its plan cache (`pg` prepares a named statement on a connection
 * the first time it runs there). Without them PostgreSQL parsed and planned the message batch's
 * statement at every run: at 2,000 msgs/s offered, p50 8.5 → 5.1 ms (issue 27). A text is named
 * only when it has parameters (one without keeps the simple protocol, which allows several
 * statements), and at most `max` texts are: SQL built from data runs unnamed beyond them.
 */
export class PreparedNames {
  readonly #names = new Map<string, string>();
  /** Names given so far: each name is new, so a forgotten text's plan never comes back. */
  #named = 0;

  constructor(private readonly max = MAX_PREPARED) {}

  /** What `pg` runs for `text` with `values`: named, or unnamed (parsed at each run). */
  config(text: string, values: unknown[]): pg.QueryConfig {
    if (values.length === 0) return { text, values };
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < this.max) {
      name = `s${++this.#named}`;
      this.#names.set(text, name);
    }
    return name === undefined ? { text, values } : { name, text, values };
  }

  /**
   * "cached plan must not change result type": a table under `SELECT *` changed shape (another
   * process's migration). The text gets a new name, so each connection prepares it again.
   */
  forget(text: string): void {
    this.#names.delete(text);
  }
}
