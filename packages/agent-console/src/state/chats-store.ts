/**
 * The console's chats: an external store read with `useSyncExternalStore`. At most 10 chats
 * at once (MAX_CONCURRENT_CHATS); one is in view; each has its unread count.
 */
import { MAX_CONCURRENT_CHATS, type Item } from "@chat-widget/protocol";
import {
  newChatState,
  withConnection,
  withItems,
  withOutgoing,
  withoutOutgoing,
  withReceipt,
  withTransfer,
  type ChatInfo,
  type ChatState,
  type Outgoing,
  type ReceiptMark,
  type Transfer,
} from "./chat-state.js";

export interface ConsoleSnapshot {
  /** In the order they were accepted. */
  chats: ChatState[];
  selected: string | null;
  /** A problem not tied to one chat (queue, availability, connection). */
  error: string | null;
}

type Listener = () => void;

export class ChatsStore {
  private snapshot: ConsoleSnapshot = { chats: [], selected: null, error: null };
  private readonly listeners = new Set<Listener>();

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ConsoleSnapshot => this.snapshot;

  chat(contactId: string): ChatState | undefined {
    return this.snapshot.chats.find((c) => c.info.ContactId === contactId);
  }

  /** Whether another chat can be opened (at most 10 at once). */
  get hasRoom(): boolean {
    return this.snapshot.chats.filter((c) => !c.ended).length < MAX_CONCURRENT_CHATS;
  }

  /** Add a chat (a second open of the same contact only refreshes its details). Returns false when full. */
  open(info: ChatInfo): boolean {
    const existing = this.chat(info.ContactId);
    if (existing) {
      this.update(info.ContactId, (c) => ({ ...c, info: { ...c.info, ...info } }));
      return true;
    }
    if (!this.hasRoom) return false;
    const chats = [...this.snapshot.chats, newChatState(info)];
    this.set({ ...this.snapshot, chats, selected: this.snapshot.selected ?? info.ContactId });
    return true;
  }

  /** Close a chat's tab. */
  remove(contactId: string): void {
    const chats = this.snapshot.chats.filter((c) => c.info.ContactId !== contactId);
    const selected =
      this.snapshot.selected === contactId
        ? (chats[0]?.info.ContactId ?? null)
        : this.snapshot.selected;
    this.set({ ...this.snapshot, chats, selected });
  }

  select(contactId: string): void {
    const chats = this.snapshot.chats.map((c) =>
      c.info.ContactId === contactId ? { ...c, unread: 0 } : c,
    );
    this.set({ ...this.snapshot, chats, selected: contactId });
  }

  /** Add items; `live` is false for the history loaded when a chat opens (never unread). */
  addItems(contactId: string, items: Item[], live = true): void {
    const inView = this.snapshot.selected === contactId;
    this.update(contactId, (c) => withItems(c, items, inView, live));
  }

  /** Whether older pages of the chat's transcript remain to be loaded. */
  setOlder(contactId: string, older: boolean): void {
    this.update(contactId, (c) => (c.older === older ? c : { ...c, older }));
  }

  setLoadingOlder(contactId: string, loadingOlder: boolean): void {
    this.update(contactId, (c) => (c.loadingOlder === loadingOlder ? c : { ...c, loadingOlder }));
  }

  markReceipt(contactId: string, messageId: string, mark: ReceiptMark): void {
    this.update(contactId, (c) => withReceipt(c, messageId, mark));
  }

  setTyping(contactId: string, typing: boolean): void {
    this.update(contactId, (c) =>
      c.customerTyping === typing || c.ended ? c : { ...c, customerTyping: typing },
    );
  }

  setConnected(contactId: string, up: boolean): void {
    this.update(contactId, (c) => withConnection(c, up));
  }

  setOutgoing(contactId: string, message: Outgoing): void {
    this.update(contactId, (c) => withOutgoing(c, message));
  }

  /** A message was stored: its item (from the send's answer or the stream) replaces it. */
  stored(contactId: string, clientToken: string, item: Item): void {
    this.update(contactId, (c) => withoutOutgoing(withItems(c, [item], true, false), clientToken));
  }

  setEnded(contactId: string): void {
    this.update(contactId, (c) => (c.ended ? c : { ...c, ended: true, customerTyping: false }));
  }

  setChatError(contactId: string, error: string | null): void {
    this.update(contactId, (c) => (c.error === error ? c : { ...c, error }));
  }

  setTransfer(contactId: string, transfer: Transfer): void {
    this.update(contactId, (c) => withTransfer(c, transfer));
  }

  setError(error: string | null): void {
    if (this.snapshot.error !== error) this.set({ ...this.snapshot, error });
  }

  clear(): void {
    this.set({ chats: [], selected: null, error: null });
  }

  private update(contactId: string, change: (chat: ChatState) => ChatState): void {
    let changed = false;
    const chats = this.snapshot.chats.map((c) => {
      if (c.info.ContactId !== contactId) return c;
      const next = change(c);
      if (next !== c) changed = true;
      return next;
    });
    if (changed) this.set({ ...this.snapshot, chats });
  }

  private set(snapshot: ConsoleSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of [...this.listeners]) listener();
  }
}
