import type { Db } from "../../src/store/db.js";

/** `db`, with each statement asked of it (outside a transaction) pushed to `seen` as given. */
export function recording(db: Db, seen: string[]): Db {
  return {
    ...db,
    query: (sql, params) => {
      seen.push(sql);
      return db.query(sql, params);
    },
  };
}

/** The statements matching `pattern` that `db` was asked to run while `fn` ran (whitespace folded). */
export async function statementsDuring(
  db: Db,
  pattern: RegExp,
  fn: () => Promise<void>,
): Promise<string[]> {
  const real = db.query;
  const query = real.bind(db);
  const seen: string[] = [];
  db.query = (sql, params) => {
    if (pattern.test(sql)) seen.push(sql.replace(/\s+/g, " ").trim());
    return query(sql, params);
  };
  try {
    await fn();
  } finally {
    db.query = real;
  }
  return seen;
}

/** What countStatements counts, the failures still to inject, and how to stop. */
export interface CountedStatements {
  /** Statements run (or failed) since this was last set to 0. */
  statements: number;
  /** How many of the next ones fail, as if the store refused them. */
  failNext: number;
  /** Puts `db`'s own query back. */
  restore(): void;
}

/** Counts the statements `db` is asked to run (outside a transaction) that contain `marker`. */
export function countStatements(db: Db, marker: string): CountedStatements {
  const real = db.query;
  const query = real.bind(db);
  const counted: CountedStatements = {
    statements: 0,
    failNext: 0,
    restore: () => {
      db.query = real;
    },
  };
  db.query = (sql, params) => {
    if (sql.includes(marker)) {
      counted.statements++;
      if (counted.failNext > 0) {
        counted.failNext--;
        return Promise.reject(new Error("injected: the statement failed"));
      }
    }
    return query(sql, params);
  };
  return counted;
}

/** Per transaction, the statements it ran; `fail.when` fails the first that matches, after them. */
export function recordTransactions(db: Db) {
  const real = db.transaction.bind(db);
  const seen: string[][] = [];
  const fail = { when: null as ((statements: string[]) => boolean) | null };
  db.transaction = (fn) =>
    real(async (tx) => {
      const statements: string[] = [];
      seen.push(statements);
      const result = await fn({
        ...tx,
        query: (sql, params) => {
          statements.push(sql.replace(/\s+/g, " ").trim());
          return tx.query(sql, params);
        },
      });
      if (fail.when?.(statements)) {
        fail.when = null;
        throw new Error("injected: the transaction failed after its statements");
      }
      return result;
    });
  return { seen, fail, restore: () => (db.transaction = real) };
}

/**
 * A message batch written without a transaction (MessageBatch's writeUnlocked): its
 * read of the senders (readSenders: no lock) and its write (appendItemsIfUnchanged).
 */
export const isUnlockedSendersRead = (sql: string): boolean =>
  /JOIN contacts c ON c.contact_id = p.contact_id/.test(sql) && !/FOR UPDATE/.test(sql);
export const UNLOCKED_WRITE = /c\.xmin = v\.version/;
