import { expect } from "vitest";
import type { Db } from "../../src/store/db.js";

/** The tables of the store in which `text` appears anywhere in a row. */
export async function tablesHolding(db: Db, text: string): Promise<string[]> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  expect(tables.map((t) => t.table_name)).toContain("participants");
  const holding: string[] = [];
  for (const { table_name } of tables) {
    const rows = await db.query(
      `SELECT 1 FROM "${table_name}" t WHERE strpos(t::text, $1) > 0 LIMIT 1`,
      [text],
    );
    if (rows.length > 0) holding.push(table_name);
  }
  return holding;
}
