/** Ids the flow makes of what it does, so that doing it again gives the same ids. */
import { createHash } from "node:crypto";

/** A UUID (version 8) made of `seed`: the same seed, the same id. */
export function uuidFrom(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The id of a flow voice's participant in a contact, made of both. */
export const flowParticipantId = (contactId: string, voice: "bot" | "assistant"): string =>
  uuidFrom(`flow-participant:${contactId}:${voice}`);

/** The Id of an item the flow commits in a contact, made of both and `seed` (its step). */
export const flowItemId = (contactId: string, seed: string): string =>
  uuidFrom(`flow-item:${contactId}:${seed}`);
