/**
 * What a host may turn on for unread messages (issue 24; both off by default): a chime for each
 * new one (data-unread-sound), and the page's title taking turns with "{count} new messages"
 * every second until the visitor opens the chat, when the page's own title comes back
 * (data-title-flash). Renders nothing.
 */
import { useEffect, useRef } from "react";
import { TITLE_FLASH_MS } from "../state/constants.js";
import { useTexts } from "../texts-context.js";
import { fill } from "../texts.js";
import { useLatest } from "../use-latest.js";
import { playChime } from "./chime.js";

export interface UnreadAlertsProps {
  unread: number;
  sound?: boolean;
  titleFlash?: boolean;
}

export function UnreadAlerts({ unread, sound, titleFlash }: UnreadAlertsProps) {
  const t = useTexts();
  const before = useRef(unread);
  useEffect(() => {
    if (sound && unread > before.current) playChime();
    before.current = unread;
  }, [unread, sound]);

  const text = useLatest(
    fill(unread === 1 ? t.TITLE_UNREAD_ONE : t.TITLE_UNREAD_OTHER, { count: unread }),
  );
  const flashing = Boolean(titleFlash) && unread > 0;
  useEffect(() => {
    if (!flashing) return;
    let own = document.title;
    let shown = "";
    const show = (title: string) => {
      shown = title;
      document.title = title;
    };
    show(text.current);
    const timer = setInterval(() => {
      // The page changed its title meanwhile: that is its title from now on.
      if (document.title !== shown) own = document.title;
      show(shown === own ? text.current : own);
    }, TITLE_FLASH_MS);
    return () => {
      clearInterval(timer);
      if (document.title === shown) document.title = own;
    };
  }, [flashing, text]);
  return null;
}
