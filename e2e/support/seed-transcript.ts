/**
 * A long transcript written straight into the store (issue 61's 5,000-message chats): `count`
 * messages of the contact's visitor or of an advisor of old, appended under the contact's row
 * lock as the centre appends its own, numbered from 1 by `text`.
 */
import { randomUUID } from "node:crypto";
import type { Item } from "@chat-widget/protocol";
import { appendItems } from "../../packages/server/src/contact-centre/items-repo.js";
import type { Db } from "../../packages/server/src/store/db.js";

export async function seedMessages(
  db: Db,
  contactId: string,
  count: number,
  role: "CUSTOMER" | "AGENT",
  text: (n: number) => string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.query<{ last_seq: number; customer: string }>(
      `SELECT c.last_seq, p.participant_id AS customer FROM contacts c
         JOIN participants p ON p.contact_id = c.contact_id AND p.role = 'CUSTOMER'
        WHERE c.contact_id = $1 FOR UPDATE OF c`,
      [contactId],
    );
    const at = Date.now();
    const items: Item[] = Array.from({ length: count }, (_, i) => ({
      Id: randomUUID(),
      AbsoluteTime: new Date(at + i).toISOString(),
      Type: "MESSAGE",
      ContentType: "text/plain",
      Content: text(i + 1),
      ParticipantRole: role,
      ...(role === "CUSTOMER"
        ? { ParticipantId: row!.customer, DisplayName: "Customer" }
        : { ParticipantId: "advisor-of-old", DisplayName: "Kim" }),
    }));
    await appendItems(tx, [{ contactId, lastSeq: row!.last_seq, items }]);
  });
}
