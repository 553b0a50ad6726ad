/** The advisor's open chats (up to 10) as tabs, each with its unread count; arrow keys move between them. */
import { useRef, type KeyboardEvent } from "react";
import { MAX_CONCURRENT_CHATS } from "@chat-widget/protocol";
import type { ChatState } from "../state/chat-state.js";
import { orderNumberOf } from "./attributes.js";

export interface ChatTabsProps {
  chats: ChatState[];
  selected: string | null;
  select(contactId: string): void;
}

export const tabId = (contactId: string) => `tab-${contactId}`;
export const panelId = (contactId: string) => `panel-${contactId}`;

export function ChatTabs({ chats, selected, select }: ChatTabsProps) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    const index = chats.findIndex((c) => c.info.ContactId === selected);
    let next = -1;
    if (e.key === "ArrowDown" || e.key === "ArrowRight") next = (index + 1) % chats.length;
    else if (e.key === "ArrowUp" || e.key === "ArrowLeft")
      next = (index - 1 + chats.length) % chats.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = chats.length - 1;
    const target = chats[next];
    if (!target) return;
    e.preventDefault();
    select(target.info.ContactId);
    list.current
      ?.querySelector<HTMLElement>(`#${CSS.escape(tabId(target.info.ContactId))}`)
      ?.focus();
  };
  return (
    <nav className="chats" aria-labelledby="chats-title">
      <h2 id="chats-title">
        My chats{" "}
        <span className="count">
          ({chats.filter((c) => !c.ended).length}/{MAX_CONCURRENT_CHATS})
        </span>
      </h2>
      {chats.length === 0 ? (
        <p className="empty">Accept a chat from the queue.</p>
      ) : (
        <div role="tablist" aria-orientation="vertical" ref={list} onKeyDown={onKeyDown}>
          {chats.map((c) => {
            const active = c.info.ContactId === selected;
            const order = orderNumberOf(c.info.Attributes);
            const name = c.info.CustomerName || "Customer";
            return (
              <button
                key={c.info.ContactId}
                id={tabId(c.info.ContactId)}
                type="button"
                role="tab"
                aria-selected={active}
                aria-controls={panelId(c.info.ContactId)}
                tabIndex={active ? 0 : -1}
                className={`tab${c.ended ? " ended" : ""}`}
                onClick={() => select(c.info.ContactId)}
              >
                <span className="name">{name}</span>
                <span className="short-id" title={`Contact ${c.info.ContactId}`}>
                  #{c.info.ContactId.slice(-4)}
                </span>
                {order && <span className="order">{order}</span>}
                {c.customerTyping && (
                  <span className="typing-dot">
                    <span className="sr-only">typing</span>
                  </span>
                )}
                {c.ended && <span className="ended-mark">ended</span>}
                {c.unread > 0 && (
                  <span className="unread" aria-label={`${c.unread} unread`}>
                    {c.unread}
                  </span>
                )}
              </button>
            );
          })}
        </div>
      )}
    </nav>
  );
}
