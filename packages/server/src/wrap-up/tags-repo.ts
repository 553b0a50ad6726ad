/** The contact_tags table: a conversation's tags (issue 60), and the team's for suggestions. */
import { TagLimits } from "@chat-widget/protocol";
import type { Db } from "../store/db.js";

export async function listTags(db: Db, contactId: string): Promise<string[]> {
  const rows = await db.query<{ tag: string }>(
    "SELECT tag FROM contact_tags WHERE contact_id = $1 ORDER BY tag",
    [contactId],
  );
  return rows.map((r) => r.tag);
}

/** The conversation's tags become `tags` (already normal and distinct); those kept keep their author. */
export async function setTags(
  db: Db,
  contactId: string,
  tags: string[],
  by: string,
  at: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query("SELECT contact_id FROM contacts WHERE contact_id = $1 FOR UPDATE", [contactId]);
    await tx.query(
      "DELETE FROM contact_tags WHERE contact_id = $1 AND NOT (tag = ANY($2::text[]))",
      [contactId, tags],
    );
    for (const tag of tags)
      await tx.query(
        `INSERT INTO contact_tags (contact_id, tag, added_by, added_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (contact_id, tag) DO NOTHING`,
        [contactId, tag, by, at],
      );
  });
}

/** The team's tags beginning with `prefix` (any, when empty), the most used first. */
export async function suggestTags(
  db: Db,
  prefix: string,
): Promise<{ Tag: string; Uses: number }[]> {
  const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db.query<{ tag: string; uses: number }>(
    `SELECT tag, count(*)::int AS uses FROM contact_tags WHERE tag LIKE $1
     GROUP BY tag ORDER BY uses DESC, tag LIMIT $2`,
    [like, TagLimits.SUGGESTIONS],
  );
  return rows.map((r) => ({ Tag: r.tag, Uses: Number(r.uses) }));
}
