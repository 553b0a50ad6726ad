/**
 * What raises an alert (issue 60): a visitor who starts waiting in the queue, and a new message
 * in a chat not in view (its unread count grows). What was there when the console opened does
 * not; the tab's title counts both, unread messages and chats waiting.
 */
import type { QueuedContact } from "@chat-widget/protocol";
import { useEffect, useRef } from "react";
import type { ChatState } from "../state/chat-state.js";
import type { Alerts } from "./alerts.js";

export function useConsoleAlerts(
  queue: readonly QueuedContact[],
  chats: readonly ChatState[],
  alert: Alerts["alert"],
): void {
  const waiting = useRef<Set<string> | null>(null);
  useEffect(() => {
    const now = new Set(queue.map((c) => c.ContactId));
    const before = waiting.current;
    waiting.current = now;
    if (!before) return;
    for (const c of queue)
      if (!before.has(c.ContactId))
        alert(
          "A visitor is waiting",
          `${c.CustomerName || "A visitor"} is waiting in the queue.`,
          `queue-${c.ContactId}`,
        );
  }, [queue, alert]);

  const unread = useRef(new Map<string, number>());
  useEffect(() => {
    for (const chat of chats) {
      const id = chat.info.ContactId;
      const before = unread.current.get(id) ?? 0;
      if (chat.unread > before) {
        const last = [...chat.items].reverse().find((i) => i.ParticipantRole === "CUSTOMER");
        alert(
          `New message from ${chat.info.CustomerName || "the visitor"}`,
          typeof last?.Content === "string" ? last.Content.slice(0, 140) : "",
          `chat-${id}`,
        );
      }
      unread.current.set(id, chat.unread);
    }
  }, [chats, alert]);

  const count = queue.length + chats.reduce((n, c) => n + c.unread, 0);
  useEffect(() => {
    document.title = count > 0 ? `(${count}) Agent console` : "Agent console";
  }, [count]);
}
