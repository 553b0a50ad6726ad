import type { Db } from "../../src/store/db.js";

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
