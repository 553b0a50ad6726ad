/**
 * Builds the history's rows (issue 60): a chat's row as soon as its chat.ended item is
 * committed, off the message path; and, at start and every CATCH_UP_MS, the rows of ended
 * chats that have none (ended while a process died between the two, or before this version).
 */
import { ContentType } from "@chat-widget/protocol";
import type { ContactCentre } from "../contact-centre/types.js";
import type { Db } from "../store/db.js";
import { startSweeper } from "../sweeper.js";
import { buildConversation, buildMissing } from "./conversations-repo.js";

export const CATCH_UP_MS = 10 * 60 * 1000;
const BATCH = 500;

/** Every ended chat without a history row gets one, a batch at a time; how many did. */
export async function catchUp(db: Db): Promise<number> {
  let built = 0;
  for (;;) {
    const n = await buildMissing(db, BATCH);
    built += n;
    if (n < BATCH) return built;
  }
}

/** Start building; the returned stop waits for a build under way. */
export function startHistoryBuilder(
  db: Db,
  centre: ContactCentre,
  onError: (error: unknown) => void,
): () => Promise<void> {
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<unknown>) => {
    const p = work.then(
      () => {},
      (error: unknown) => onError(error),
    );
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const stopItems = centre.onItemCommitted((contact, item) => {
    if (item.ContentType === ContentType.CHAT_ENDED)
      track(buildConversation(db, contact.contactId));
  });
  track(catchUp(db));
  const stopSweeper = startSweeper(CATCH_UP_MS, () => catchUp(db), onError);
  return async () => {
    stopItems();
    await stopSweeper();
    await Promise.all([...pending]);
  };
}
