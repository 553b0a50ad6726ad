/**
 * Who may read a conversation through the agent API (issue 60, until the team issue adds
 * roles): a live chat only the advisor holding it; an ended one any signed-in advisor (the
 * team's history). Anyone else is told it is not found, so an advisor cannot learn which
 * chats exist by guessing ids.
 */
import type { Contact, ContactCentre } from "../contact-centre/types.js";
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";
import type { AdvisorRecord } from "./advisors-repo.js";
import { findAgentContact } from "./queue-repo.js";

/**
 * A live chat the advisor holds, to write to (notes, tags): another's or a waiting one is not
 * found (404); an ended one is a 409.
 */
export async function heldChat(
  db: Db,
  centre: ContactCentre,
  advisor: AdvisorRecord,
  contactId: string,
): Promise<Contact> {
  const contact = await readableChat(db, centre, advisor, contactId);
  if (contact.status === "ended") throw Errors.conflict(`Contact ${contactId} has ended.`);
  return contact;
}

export async function readableChat(
  db: Db,
  centre: ContactCentre,
  advisor: AdvisorRecord,
  contactId: string,
): Promise<Contact> {
  const contact = await centre.getContact(contactId);
  if (contact?.status === "ended") return contact;
  if (contact) {
    const held = await findAgentContact(db, contactId);
    if (
      held?.status === "active" &&
      held.advisorId === advisor.AdvisorId &&
      held.participantId !== null
    )
      return contact;
  }
  throw Errors.notFound(
    `Contact ${contactId} is not one of your chats nor an ended one.`,
    contactId,
    "CONTACT",
  );
}
