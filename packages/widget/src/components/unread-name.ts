/** The launcher's name and badge for messages unread: React's (Button.tsx) and the painted one's. */
import { fill } from "../texts.js";

interface UnreadTexts {
  OPEN: string;
  UNREAD_ONE: string;
  UNREAD_OTHER: string;
}

/** "Open chat", or "Open chat, 2 unread messages". */
export const launcherName = (unread: number, t: UnreadTexts): string =>
  unread > 0 ? fill(unread === 1 ? t.UNREAD_ONE : t.UNREAD_OTHER, { count: unread }) : t.OPEN;

/** The badge's text: the count, "99+" above 99. */
export const badgeText = (unread: number): string => (unread > 99 ? "99+" : String(unread));
