import { parse, type PGlite, protocol, types } from "@electric-sql/pglite";
import { isStalePlan, MAX_PREPARED } from "./prepared.js";

const { serialize } = protocol;

/**
 * A prepared statement's plan is made again once it is this old. PostgreSQL keeps a prepared
 * statement's generic plan for good, and PGlite has no autovacuum to tell it a table grew: a
 * lookup planned on the empty store of a fresh start (a hash join over a sequential scan)
 * stayed so at 50,000 rows, 0.2 → 11 ms a run, where the same text prepared again used the
 * index. Preparing anew costs one parse and PostgreSQL's next five runs planned for their own
 * values, per statement and period (forcing that on every run cost the set-up a third).
 */
export const REPLAN_MS = 10_000;

interface Statement {
  name: string;
  /** When it was prepared (`now()`): its plan is made again REPLAN_MS later. */
  preparedAt: number;
  /** The parameters' type ids, as PostgreSQL inferred them: how each value is serialized. */
  paramTypes: number[];
}

/** json and jsonb parameters at least this long (UTF-16 units) are sent in binary. */
export const BINARY_FROM = 512;
/** jsonb's binary form is its text after this version byte; json's is the text. */
const JSONB_VERSION = 1;

/**
 * A long json or jsonb parameter in PostgreSQL's binary form (its UTF-8 bytes), or null to
 * send it as text. PGlite's writer measures and encodes a text parameter in JavaScript
 * character by character: a batch's items (tens of kilobytes of jsonb) took 4 times longer
 * than Node's encoder (issue 27). Text parameters stay text: an attachment's 700 KB base64
 * chunk would be copied twice more on its way (the upload bench's peak memory rose 20–40 MB).
 */
function binary(type: number, text: string): Uint8Array | null {
  if (text.length < BINARY_FROM) return null;
  if (type === types.JSON) return Buffer.from(text);
  if (type !== types.JSONB) return null;
  const bytes = Buffer.allocUnsafe(1 + Buffer.byteLength(text));
  bytes[0] = JSONB_VERSION;
  bytes.write(text, 1);
  return bytes;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Named prepared statements on PGlite. Its `query` parses and plans every statement again and
 * crosses into WebAssembly six times (parse, describe, bind, describe, execute, sync); here a
 * text is parsed once, under its own name, and each run is one crossing (bind, describe,
 * execute, sync) that reuses the plan: about 40 % less time per statement (issue 27).
 * Callers hold PGlite's locks exactly as its `query` would (see `run`).
 */
export class PreparedStatements {
  readonly #pg: PGlite;
  readonly #now: () => number;
  readonly #statements = new Map<string, Statement>();
  /** Names given so far: each name is new, so a forgotten statement's never comes back. */
  #named = 0;

  /** `now` in milliseconds (a test's clock): when each plan gets old. */
  constructor(pg: PGlite, now: () => number = () => performance.now()) {
    this.#pg = pg;
    this.#now = now;
  }

  /** The engine these statements are prepared on. */
  get engine(): PGlite {
    return this.#pg;
  }

  /** The rows of `sql` with `params`; `inTransaction` when a transaction holds the engine. */
  async query<T>(sql: string, params: unknown[], inTransaction: boolean): Promise<T[]> {
    const pg = this.#pg;
    await pg._checkReady();
    const run = () => pg._runExclusiveQuery(() => this.#run<T>(sql, params, inTransaction));
    return inTransaction ? run() : pg._runExclusiveTransaction(run);
  }

  /**
   * Forgets every prepared statement after a schema change (`exec` runs migrations), through
   * `target`: the engine, or the transaction that holds it.
   */
  async reset(target: Pick<PGlite, "exec">): Promise<void> {
    this.#statements.clear();
    await target.exec("DEALLOCATE ALL");
  }

  async #run<T>(sql: string, params: unknown[], inTransaction: boolean): Promise<T[]> {
    try {
      return await this.#execute<T>(sql, params, inTransaction);
    } catch (error) {
      // A table under `SELECT *` changed shape outside `exec`.
      if (!isStalePlan(error)) throw error;
      await this.#forget(sql);
      return await this.#execute<T>(sql, params, inTransaction);
    }
  }

  async #forget(sql: string): Promise<void> {
    const statement = this.#statements.get(sql);
    if (!statement) return;
    this.#statements.delete(sql);
    await this.#pg.execProtocol(
      concat([serialize.close({ type: "S", name: statement.name }), serialize.sync()]),
      { syncToFs: false },
    );
  }

  async #execute<T>(sql: string, params: unknown[], inTransaction: boolean): Promise<T[]> {
    const pg = this.#pg;
    let statement = this.#statements.get(sql);
    if (statement && this.#now() - statement.preparedAt >= REPLAN_MS) {
      await this.#forget(sql);
      statement = undefined;
    }
    statement ??= await this.#prepare(sql);
    const values = this.#values(statement, params);
    const { messages } = await pg.execProtocol(
      concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    if (!inTransaction) await pg.syncToFs();
    return (parse.parseResults(messages, pg.parsers)[0]?.rows ?? []) as T[];
  }

  /**
   * Each parameter serialized for the type PostgreSQL gave it (as PGlite's `query`), as text; a
   * long json or jsonb one in binary (see binary).
   */
  #values(statement: Statement, params: unknown[]): (string | Uint8Array | null)[] {
    return params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i]!;
      const serializer = this.#pg.serializers[type];
      const text = serializer
        ? serializer(value)
        : typeof value === "object"
          ? JSON.stringify(value)
          : typeof value === "string"
            ? value
            : `${value as number | boolean | bigint}`;
      return binary(type, text) ?? text;
    });
  }

  /** Parses `sql` under a new name (the unnamed statement once MAX_PREPARED are kept). */
  async #prepare(sql: string): Promise<Statement> {
    const keep = this.#statements.size < MAX_PREPARED;
    const name = keep ? `s${++this.#named}` : "";
    const { messages } = await this.#pg.execProtocol(
      concat([
        serialize.parse({ name, text: sql, types: [] }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = {
      name,
      preparedAt: this.#now(),
      paramTypes: parse.parseDescribeStatementResults(messages),
    };
    if (keep) this.#statements.set(sql, statement);
    return statement;
  }
}
