/** The advisor's sign-in kept in session storage, so a reload stays signed in. */
import type { Advisor } from "@chat-widget/protocol";

export interface Auth {
  token: string;
  advisor: Advisor;
}

const KEY = "agent-console.auth";

export function loadAuth(storage: Storage | undefined = globalThis.sessionStorage): Auth | null {
  try {
    const raw = storage?.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<Auth>;
    return typeof value.token === "string" && value.advisor ? (value as Auth) : null;
  } catch {
    return null;
  }
}

export function saveAuth(
  auth: Auth | null,
  storage: Storage | undefined = globalThis.sessionStorage,
): void {
  try {
    if (auth) storage?.setItem(KEY, JSON.stringify(auth));
    else storage?.removeItem(KEY);
  } catch {
    /* storage unavailable: the sign-in lasts for this page only */
  }
}
