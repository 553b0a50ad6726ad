/**
 * The advisor's chats through the chat client: one shared websocket manager (its URL from
 * the agent API) handed to every AGENT `ChatSession`, whose `getConnectionToken` asks the
 * agent API. Session events go into the ChatsStore; the store's actions come back here.
 */
import {
  ChatSession as DefaultChatSession,
  createProgressFetch,
  createWebSocketManager,
  type ChatSession,
  type CreateSessionArgs,
  type ProgressFetch,
  type WebSocketManager,
} from "@chat-widget/chat-client";
import {
  ContentType,
  ItemType,
  ParticipantRole,
  newClientToken,
  type Item,
} from "@chat-widget/protocol";
import type { AgentApi } from "../api/agent-api.js";
import { errorText } from "../api/errors.js";
import type { ChatInfo, Outgoing } from "../state/chat-state.js";
import { loadUnsent, saveUnsent } from "../state/unsent-storage.js";
import type { ChatsStore } from "../state/chats-store.js";
import { attachmentProblem, saveBlob } from "./attachment-files.js";
import { transferFile, type TransferHandle } from "./file-transfers.js";
import { TranscriptPages } from "./transcript-pages.js";

/** How long the customer's typing indicator shows after their last typing event (docs/product.md §4). */
export const TYPING_INDICATOR_MS = 3000;

export interface SessionFactory {
  create(args: CreateSessionArgs): ChatSession;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ConsoleChatsOptions {
  api: AgentApi;
  token: string;
  store: ChatsStore;
  sessions?: SessionFactory;
  manager?: WebSocketManager;
  timers?: Timers;
  /** Whether the advisor can see the page (read receipts are sent only then). */
  isVisible?: () => boolean;
  progressFetch?: () => ProgressFetch;
  /** Where messages still sending are kept across a reload (default: session storage). */
  storage?: Storage;
}

interface Handle extends TransferHandle {
  session: ChatSession;
  typingTimer: unknown;
  unsubscribe: (() => void)[];
  /** Its transcript's newest page, and older ones as the advisor scrolls up. */
  pages: TranscriptPages;
}

export class ConsoleChats {
  private readonly handles = new Map<string, Handle>();
  private readonly manager: WebSocketManager;
  private readonly sessions: SessionFactory;
  private readonly timers: Timers;
  private started = false;

  constructor(private readonly o: ConsoleChatsOptions) {
    this.manager = o.manager ?? createWebSocketManager();
    this.sessions = o.sessions ?? DefaultChatSession;
    this.timers = o.timers ?? {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
    };
  }

  /** Open the advisor's one websocket. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.manager.onInitFailure((error) =>
      this.o.store.setError(`The chat connection failed: ${errorText(error)}`),
    );
    void this.manager
      .init(() => this.o.api.websocketTransport(this.o.token))
      .then((result) => {
        if (result.websocketInitFailed) {
          this.o.store.setError(`The chat connection failed: ${errorText(result.error)}`);
        }
      });
  }

  /**
   * The advisor's active chats from the agent API (e.g. after a reload): open the ones not open
   * yet. Chats end through their chat.ended item, never because a list is momentarily stale.
   */
  sync(chats: ChatInfo[]): void {
    for (const info of chats) if (!this.handles.has(info.ContactId)) void this.open(info);
  }

  async open(info: ChatInfo): Promise<void> {
    const { store, api, token } = this.o;
    if (this.handles.has(info.ContactId)) return;
    if (!store.open(info)) {
      store.setError("You already have 10 chats open: close an ended chat first.");
      return;
    }
    this.start();
    const progress = (this.o.progressFetch ?? createProgressFetch)();
    let session: ChatSession;
    try {
      session = this.sessions.create({
        type: "AGENT",
        chatDetails: {
          contactId: info.ContactId,
          initialContactId: info.InitialContactId,
          participantId: info.ParticipantId,
          participantToken: info.ParticipantToken,
          getConnectionToken: () => api.connectionToken(token, info.ContactId),
        },
        websocketManager: this.manager,
        env: { fetch: progress.fetch },
      });
    } catch (error) {
      store.setChatError(info.ContactId, errorText(error));
      return;
    }
    let connectSettled!: () => void;
    const handle: Handle = {
      info,
      session,
      progress,
      typingTimer: null,
      unsubscribe: [],
      transfers: new Promise<void>((resolve) => (connectSettled = resolve)),
      connectFailure: null,
      pages: new TranscriptPages(session, (items, more) => {
        store.addItems(info.ContactId, items, false);
        this.storedReceipts(handle, items);
        store.setOlder(info.ContactId, more);
      }),
    };
    this.handles.set(info.ContactId, handle);
    this.listen(handle);
    try {
      await session.connect();
      connectSettled();
      store.setConnected(info.ContactId, true);
      store.setChatError(info.ContactId, null); // an earlier attempt's failure is over
      this.received(handle, await handle.pages.newest(), false);
      // Written before a reload and not stored yet: the same ClientTokens, so each is stored once.
      for (const m of loadUnsent(info.ContactId, this.storage)) {
        if (
          !this.o.store.chat(info.ContactId)?.outgoing.some((o) => o.clientToken === m.clientToken)
        )
          void this.deliver(handle, { ...m, state: "sending" });
      }
    } catch (error) {
      // Forget the failed session so the next `chats` event (or a reopen) tries again.
      this.dispose(info.ContactId);
      handle.connectFailure = `Could not connect to the chat: ${errorText(error)}`;
      store.setChatError(info.ContactId, handle.connectFailure);
      connectSettled(); // files chosen meanwhile are shown as not sent, with this reason
    }
  }

  /**
   * Send the composed text (markdown): shown at once as sending; the chat client retries it
   * (same ClientToken) until it is stored, or it fails for good and shows "Not sent" with
   * Retry. False when there is nothing to send or no such chat.
   */
  send(contactId: string, text: string): Promise<boolean> {
    const content = text.trim();
    const handle = this.handles.get(contactId);
    if (!content || !handle) return Promise.resolve(false);
    void this.deliver(handle, { clientToken: newClientToken(), content, state: "sending" });
    return Promise.resolve(true);
  }

  /** The page before the oldest shown: the advisor scrolled to the top of the transcript. */
  loadOlder(contactId: string): void {
    const pages = this.handles.get(contactId)?.pages;
    if (!pages) return;
    const { store } = this.o;
    store.setLoadingOlder(contactId, true);
    pages
      .loadOlder()
      .catch((error: unknown) =>
        store.setChatError(contactId, `Earlier messages could not be loaded: ${errorText(error)}`),
      )
      .finally(() => store.setLoadingOlder(contactId, false));
  }

  /** Retry a message that was not sent, under its own ClientToken (so it is stored once). */
  retry(contactId: string, clientToken: string): void {
    const handle = this.handles.get(contactId);
    const message = this.o.store
      .chat(contactId)
      ?.outgoing.find((o) => o.clientToken === clientToken);
    if (!handle || message?.state !== "failed") return;
    void this.deliver(handle, { ...message, state: "sending" });
  }

  private async deliver(handle: Handle, message: Outgoing): Promise<void> {
    const { store } = this.o;
    const { ContactId, ParticipantId } = handle.info;
    store.setOutgoing(ContactId, message);
    this.keepUnsent(ContactId);
    try {
      const sent = await handle.session.sendMessage({
        message: message.content,
        contentType: ContentType.TEXT_MARKDOWN,
        clientToken: message.clientToken,
      });
      const { Id, AbsoluteTime } = sent.data;
      store.stored(ContactId, message.clientToken, {
        Id,
        AbsoluteTime,
        Content: message.content,
        ContentType: ContentType.TEXT_MARKDOWN,
        Type: ItemType.MESSAGE,
        ParticipantId,
        ParticipantRole: ParticipantRole.AGENT,
      });
      store.setChatError(ContactId, null); // an earlier "was not sent" is over
    } catch (error) {
      store.setOutgoing(ContactId, { ...message, state: "failed" });
      store.setChatError(ContactId, `The message was not sent: ${errorText(error)}`);
    }
    this.keepUnsent(ContactId);
  }

  /** Keep the chat's messages still sending in storage, for a reload. */
  private keepUnsent(contactId: string): void {
    const outgoing = this.o.store.chat(contactId)?.outgoing ?? [];
    saveUnsent(
      contactId,
      outgoing.filter((o) => o.state === "sending"),
      this.storage,
    );
  }

  private get storage(): Storage | undefined {
    return this.o.storage ?? globalThis.sessionStorage;
  }

  /** The advisor is typing (the chat client sends at most one typing event per 10 s). */
  typing(contactId: string): void {
    const handle = this.handles.get(contactId);
    if (!handle || this.o.store.chat(contactId)?.ended) return;
    handle.session.sendEvent({ contentType: ContentType.TYPING }).catch(() => {
      // A lost typing event (e.g. while reconnecting) is not worth interrupting the advisor for.
    });
  }

  /** The advisor looks at a chat: its unread count clears and the customer's messages are marked read. */
  select(contactId: string): void {
    this.o.store.select(contactId);
    this.sendReadReceipts(contactId);
  }

  /** Mark the customer's messages in view as read (e.g. when the page becomes visible again). */
  sendReadReceipts(contactId: string): void {
    const chat = this.o.store.chat(contactId);
    const handle = this.handles.get(contactId);
    if (!chat || !handle || chat.ended || !this.visible()) return;
    for (const item of chat.items) {
      if (isCustomerMessage(item)) this.receipt(handle, item.Id, ContentType.READ_RECEIPT);
    }
  }

  sendAttachment(contactId: string, file: File): Promise<void> {
    const handle = this.handles.get(contactId);
    if (!handle) return Promise.resolve();
    const refused = attachmentProblem(file);
    if (refused) {
      this.o.store.setChatError(contactId, refused);
      return Promise.resolve();
    }
    return transferFile(this.o.store, handle, file.name, "upload", async () => {
      await handle.session.sendAttachment({ attachment: file });
    });
  }

  /** Download an attachment and hand it to the browser as a file. */
  download(contactId: string, attachmentId: string, name: string): Promise<void> {
    const handle = this.handles.get(contactId);
    if (!handle) return Promise.resolve();
    return transferFile(this.o.store, handle, name, "download", async () => {
      const blob = await handle.session.downloadAttachment({ attachmentId });
      saveBlob(blob, name);
    });
  }

  async end(contactId: string): Promise<void> {
    try {
      await this.o.api.end(this.o.token, contactId);
    } catch (error) {
      this.o.store.setChatError(contactId, `The chat was not ended: ${errorText(error)}`);
    }
  }

  /** Close an ended chat's tab. */
  close(contactId: string): void {
    saveUnsent(contactId, [], this.storage);
    this.dispose(contactId);
    this.o.store.remove(contactId);
  }

  stop(): void {
    for (const contactId of [...this.handles.keys()]) this.dispose(contactId);
    this.manager.terminate();
  }

  private listen(handle: Handle): void {
    const { session, info } = handle;
    const { store } = this.o;
    const id = info.ContactId;
    handle.unsubscribe.push(
      session.onMessage((e) => this.received(handle, [e.data])),
      session.onTyping((e) => {
        if (e.data.ParticipantRole !== ParticipantRole.CUSTOMER) return;
        store.setTyping(id, true);
        this.timers.clearTimeout(handle.typingTimer);
        handle.typingTimer = this.timers.setTimeout(
          () => store.setTyping(id, false),
          TYPING_INDICATOR_MS,
        );
      }),
      session.onReadReceipt((e) => {
        const messageId = e.data.MessageMetadata?.MessageId;
        if (messageId) store.markReceipt(id, messageId, "read");
      }),
      session.onDeliveredReceipt((e) => {
        const messageId = e.data.MessageMetadata?.MessageId;
        if (messageId) store.markReceipt(id, messageId, "delivered");
      }),
      session.onEnded(() => store.setEnded(id)),
      session.onConnectionEstablished(() => store.setConnected(id, true)),
      session.onConnectionLost(() => store.setConnected(id, false)),
      session.onConnectionBroken(() => store.setConnected(id, false)),
    );
  }

  /** Items from the live stream, or (live false) the history loaded when the chat opens. */
  private received(handle: Handle, items: Item[], live = true): void {
    const id = handle.info.ContactId;
    this.o.store.addItems(id, items, live);
    this.storedReceipts(handle, items);
    for (const item of items) {
      if (!isCustomerMessage(item)) continue;
      this.receipt(handle, item.Id, ContentType.DELIVERED_RECEIPT);
    }
    if (this.o.store.getSnapshot().selected === id) this.sendReadReceipts(id);
  }

  /**
   * The server keeps receipts as message-metadata items: mark the advisor's messages the
   * customer received or read (read wins over delivered; the advisor's own receipts are skipped).
   */
  private storedReceipts(handle: Handle, items: Item[]): void {
    const { ContactId, ParticipantId } = handle.info;
    for (const item of items) {
      const messageId = item.MessageMetadata?.MessageId;
      if (!messageId) continue;
      for (const r of item.MessageMetadata?.Receipts ?? []) {
        if (r.RecipientParticipantId === ParticipantId) continue;
        this.o.store.markReceipt(ContactId, messageId, r.ReadTimestamp ? "read" : "delivered");
      }
    }
  }

  private receipt(
    handle: Handle,
    messageId: string,
    contentType: typeof ContentType.READ_RECEIPT | typeof ContentType.DELIVERED_RECEIPT,
  ): void {
    if (this.o.store.chat(handle.info.ContactId)?.ended) return;
    handle.session.sendMessageReceipt({ contentType, messageId }).catch(() => {
      // A receipt that could not be sent is not worth interrupting the advisor for.
    });
  }

  private visible(): boolean {
    return this.o.isVisible
      ? this.o.isVisible()
      : typeof document === "undefined" || document.visibilityState !== "hidden";
  }

  private dispose(contactId: string): void {
    const handle = this.handles.get(contactId);
    if (!handle) return;
    this.timers.clearTimeout(handle.typingTimer);
    for (const unsubscribe of handle.unsubscribe) unsubscribe();
    this.handles.delete(contactId);
  }
}

const isCustomerMessage = (item: Item): boolean =>
  item.ParticipantRole === ParticipantRole.CUSTOMER &&
  item.Type === ItemType.MESSAGE &&
  Boolean(item.Id);
