/**
 * The advisor's messages still sending, per chat, kept in session storage: after a reload they
 * are sent again with their ClientTokens, so each is stored once (issue 9).
 */
export interface UnsentMessage {
  clientToken: string;
  content: string;
}

/** At most this many per chat are kept (the oldest first). */
export const MAX_UNSENT = 100;
const KEY = "agent-console.unsent";

type Unsent = Record<string, UnsentMessage[]>;

const isUnsent = (m: unknown): m is UnsentMessage =>
  typeof (m as UnsentMessage | null)?.clientToken === "string" &&
  typeof (m as UnsentMessage).content === "string";

function read(storage: Storage | undefined): Unsent {
  try {
    const value = JSON.parse(storage?.getItem(KEY) ?? "{}") as unknown;
    if (typeof value !== "object" || value === null) return {};
    const unsent: Unsent = {};
    for (const [contactId, list] of Object.entries(value)) {
      if (Array.isArray(list)) unsent[contactId] = list.filter(isUnsent).slice(0, MAX_UNSENT);
    }
    return unsent;
  } catch {
    return {};
  }
}

export function loadUnsent(
  contactId: string,
  storage: Storage | undefined = globalThis.sessionStorage,
): UnsentMessage[] {
  return read(storage)[contactId] ?? [];
}

/** Keep a chat's messages still sending (none: the chat's entry goes). */
export function saveUnsent(
  contactId: string,
  messages: readonly UnsentMessage[],
  storage: Storage | undefined = globalThis.sessionStorage,
): void {
  const unsent = read(storage);
  if (messages.length > 0) {
    unsent[contactId] = messages
      .slice(0, MAX_UNSENT)
      .map(({ clientToken, content }) => ({ clientToken, content }));
  } else delete unsent[contactId];
  try {
    if (Object.keys(unsent).length > 0) storage?.setItem(KEY, JSON.stringify(unsent));
    else storage?.removeItem(KEY);
  } catch {
    /* storage unavailable: unsent messages last for this page only */
  }
}
