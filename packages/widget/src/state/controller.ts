/**
 * The widget's effects: the flows of docs/product.md §4 around the reducer. It calls the gateway and the
 * chat adapter, runs the 5 s / 3 s / 3 s timers and the 10 s typing throttle (injected timers),
 * and keeps the chat in session storage (docs/decisions.md #6).
 */
import type { HeadStart } from "../launcher/head-start.js";
import { backoffDelayMs } from "@chat-widget/chat-client";
import { ContentType, newClientToken } from "@chat-widget/protocol";
import type { Item, StartChatResult } from "@chat-widget/protocol";
import type { ChatAdapter, ChatConnection, ChatHandlers } from "../chat/adapter.js";
import type { Gateway } from "../gateway.js";
import type { Logger } from "../logger.js";
import {
  MAX_UNSENT,
  type ChatStorage,
  type StoredChat,
  type UnsentMessage,
} from "../session-storage.js";
import { Text } from "../texts.js";
import { uploadAttachment } from "./attachments.js";
import {
  AGENT_TYPING_MS,
  BOT_LOADING_MS,
  ERROR_NOTICE_MS,
  FILE_NOTICE_MS,
  THUMBNAIL_MAX_BYTES,
  TYPING_THROTTLE_MS,
} from "./constants.js";
import { BOT_INPUT_SENTINEL, classify, isFromCustomer, isMessage } from "./entries.js";
import type { Entry, TextEntry } from "./entries.js";
import type { WidgetState } from "./reducer.js";
import { createStore } from "./store.js";
import type { Store } from "./store.js";
import { Countdown, defaultTimers } from "./timers.js";
import type { TimerHandle, Timers } from "./timers.js";
import { TranscriptPages } from "./transcript-pages.js";
import { startChat } from "./start-chat.js";
import { ItemLedger } from "./ledger.js";
import { ReadReceipts } from "./read-receipts.js";

export interface ControllerDeps {
  gateway: Gateway;
  /** A chat the first script started before the app was there (launcher/head-start.ts). */
  headStart?: Pick<HeadStart, "take">;
  adapter: ChatAdapter;
  storage: ChatStorage;
  logger: Logger;
  timers?: Timers;
}

export class WidgetController {
  private readonly store: Store = createStore();
  private readonly timers: Timers;
  private readonly errorNotice: Countdown;
  private readonly agentTyping: Countdown;
  private readonly botLoading: Countdown;
  private readonly fileNotice: Countdown;
  private connection: ChatConnection | null = null;
  private chat: StartChatResult | null = null;
  /** Bumped on close, so events of an old connection are dropped. */
  private generation = 0;
  private lastTypingAt: number | null = null;
  /** The next try at resuming a stored chat the contact centre could not be reached for. */
  private resumeTimer: TimerHandle | null = null;
  private readonly ledger = new ItemLedger();
  /**
   * The host page asked to open (a stored chat being resumed) or to minimise (a chat still
   * connecting) before the connection came: shown, or not, once it does; null: as started.
   */
  private shownWhenConnected: boolean | null = null;
  /** Generations the visitor or host ended before their connection arrived: it is disconnected. */
  private readonly endedEarly = new Set<number>();
  private readonly pages: TranscriptPages;
  /** Items the client delivered before connect() resolved: handled once the connection is ours. */
  private early: Item[] = [];
  /** Thumbnails' bytes by attachment id: fetched once a chat, whatever remounts (issue 24). */
  private readonly thumbnails = new Map<string, Promise<Blob | null>>();
  /** Messages told to the host page (chat-widget:message), each once. */
  private readonly told = new Set<string>();
  private readonly readReceipts = new ReadReceipts((messageId, afterDelivered) => {
    const connection = this.connection;
    void afterDelivered.then(() => {
      if (connection !== null && connection === this.connection)
        return this.sendEvent(ContentType.READ_RECEIPT, JSON.stringify({ messageId }));
    });
  });

  constructor(
    private readonly deps: ControllerDeps,
    /** Each message as it joins the transcript live (not history restored after a reload). */
    private readonly onMessage: (entry: Entry) => void = () => {},
  ) {
    this.timers = deps.timers ?? defaultTimers;
    this.pages = new TranscriptPages({
      connection: () => this.connection,
      receive: (item) => this.receive(item),
      ledger: this.ledger,
      store: this.store,
      logger: deps.logger,
      timers: this.timers,
    });
    this.errorNotice = new Countdown(this.timers, ERROR_NOTICE_MS, () =>
      this.store.dispatch({ type: "errorElapsed" }),
    );
    this.agentTyping = new Countdown(this.timers, AGENT_TYPING_MS, () =>
      this.store.dispatch({ type: "agentTypingElapsed" }),
    );
    this.botLoading = new Countdown(this.timers, BOT_LOADING_MS, () =>
      this.store.dispatch({ type: "botLoadingElapsed" }),
    );
    this.fileNotice = new Countdown(this.timers, FILE_NOTICE_MS, () =>
      this.store.dispatch({ type: "fileNoticeCleared" }),
    );
  }

  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);
  readonly getSnapshot = (): WidgetState => this.store.getState();

  /** The floating button: start a chat, or reopen the hidden window. */
  click(jwt: string | undefined): void {
    const state = this.store.getState();
    if (state.loading || state.error) return;
    if (state.chatExists) {
      this.store.dispatch({ type: "reopen" });
      this.save();
      this.readReceipts.shown();
      return;
    }
    void this.start(jwt);
  }

  /**
   * The host page's open(): as the launcher, except while a stored chat is still being resumed,
   * when the window shows as soon as the chat is back (issue 25).
   */
  open(jwt: string | undefined): void {
    const state = this.store.getState();
    if (state.visible) return;
    if (state.chatExists && state.loading && !state.active) {
      this.shownWhenConnected = true;
      return;
    }
    this.click(jwt);
  }

  private async start(jwt: string | undefined): Promise<void> {
    this.store.dispatch({ type: "clickWithNoChat" });
    const generation = this.generation;
    try {
      const chat = await (this.deps.headStart?.take(jwt) ??
        startChat(this.deps.gateway, jwt, this.deps.logger));
      if (generation !== this.generation) return;
      await this.connect(chat, true);
    } catch (error) {
      this.deps.logger.error(error);
      this.fail();
    }
  }

  /**
   * On mount: reconnect a chat kept in session storage and restore its transcript. A chat that
   * cannot be reconnected is a failure like any other (docs/product.md §4): it is forgotten and the error
   * notice shows for 5 s, then the button returns.
   */
  resume(): void {
    const stored = this.deps.storage.load();
    if (stored === null || this.store.getState().chatExists) return;
    this.store.dispatch({ type: "resumeStarted", unread: stored.unread ?? 0 });
    this.ledger.resumeFrom(stored.handledUntil);
    this.tryResume(stored, 0);
  }

  /**
   * Reconnect the stored chat. While the contact centre cannot be reached (issue 9) it stays
   * stored, unsent messages included, and is tried again on the client's backoff (1 s doubling
   * to 30 s); only a definite refusal (e.g. 403, the chat is over) forgets it.
   */
  private tryResume(stored: StoredChat, attempt: number): void {
    const generation = this.generation;
    this.connect(stored.chat, stored.visible, stored.unsent ?? []).catch((error: unknown) => {
      // Removed from the page meanwhile: the chat stays stored for the next page (docs/decisions.md #6).
      if (generation !== this.generation) return;
      if ((error as { final?: unknown } | null)?.final === false) {
        this.deps.logger.warn("The stored chat could not be resumed yet: trying again", error);
        this.store.dispatch({ type: "resumeRetrying" });
        this.resumeTimer = this.timers.setTimeout(
          () => this.tryResume(stored, attempt + 1),
          backoffDelayMs(attempt, Math.random),
        );
        return;
      }
      this.deps.logger.warn("The stored chat could not be resumed", error);
      this.fail();
    });
  }

  private async connect(
    chat: StartChatResult,
    visible: boolean,
    unsent: readonly UnsentMessage[] = [],
  ): Promise<void> {
    const generation = this.generation;
    this.chat = chat;
    const connection = await this.deps.adapter.connect(chat, this.handlers(generation));
    if (generation !== this.generation) {
      // Ended while connecting: the participant leaves; removed from the page: the chat stays.
      if (this.endedEarly.delete(generation)) await this.disconnect(connection);
      connection.dispose();
      return;
    }
    const shown = this.shownWhenConnected ?? visible;
    this.shownWhenConnected = null;
    this.connection = connection;
    this.store.dispatch({ type: "connectionEstablished", visible: shown });
    this.save();
    for (const item of this.early.splice(0)) this.receive(item);
    await this.pages.load(true);
    // Written before the reload and not stored yet: the same ClientTokens, so each is stored once.
    for (const message of unsent)
      void this.sendAsCustomer(connection, message.content, message.clientToken);
  }

  private handlers(generation: number): ChatHandlers {
    const current = () => generation === this.generation;
    return {
      onMessage: (item) => {
        if (!current()) return;
        if (this.connection) this.receive(item);
        else this.early.push(item);
      },
      onTyping: (item) => current() && this.typing(item),
      onReceipt: (item) => current() && this.store.dispatch({ type: "receiptReceived", item }),
      onConnectionBroken: () => current() && void this.connectionBroken(),
      onConnectionEstablished: () => {
        if (!current()) return;
        this.store.dispatch({ type: "connectionRegained" });
        // After a reconnect: repair the gap with getTranscript (each item shown once).
        if (this.connection) void this.pages.load(false);
      },
      onConnectionLost: () => current() && this.store.dispatch({ type: "connectionLost" }),
    };
  }

  /** The visitor scrolled to the oldest entry shown: the page before it (issue 61). */
  loadOlder(): Promise<void> {
    return this.pages.loadOlder();
  }

  /** Handle an item once: live (receipt, bot echo, timers) unless the page handled it before a reload. */
  private receive(item: Item): void {
    // A streamed answer still being written (docs/protocol.md §3.4.1): it grows in place; its
    // receipt, unread count and host event come once, with the completed message.
    if (item.MessageMetadata?.MessageCompleted === false) {
      if (!this.ledger.has(item.Id)) this.store.dispatch({ type: "streamGrew", item });
      return;
    }
    const admitted = this.ledger.admit(item);
    if (admitted === null) return;
    const { live } = admitted;
    const classified = classify(item);
    if (live && !isFromCustomer(item) && isMessage(item)) {
      this.agentTyping.stop();
      const delivery = this.sendEvent(
        ContentType.DELIVERED_RECEIPT,
        JSON.stringify({ messageId: item.Id }),
      );
      this.readReceipts.arrived(item.Id, delivery, this.store.getState().visible);
    }
    const wasActive = this.store.getState().active;
    this.store.dispatch({ type: "itemReceived", item, live });
    // Stored with the count it made unread, so the next page shows the same badge.
    if (admitted.advanced) this.save();
    if (live && classified.kind === "entry" && classified.entry.kind !== "event")
      this.tell(classified.entry);
    // The reducer decides when an item ends the chat (docs/product.md §4: a non-customer's chat-ended).
    if (wasActive && !this.store.getState().active) this.chatOver();
    if (!live) return;
    if (classified.kind === "entry" && classified.entry.kind === "template") this.botLoading.stop();
    if (classified.kind === "botMessage") {
      if (classified.content === BOT_INPUT_SENTINEL) {
        this.botLoading.stop();
      } else {
        this.botLoading.start();
        void this.echo(classified.content, classified.contentType);
      }
    }
  }

  private async echo(content: string, contentType: string): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    try {
      const sent = await connection.sendMessage(content, contentType);
      this.store.dispatch({ type: "botEchoSent", id: sent.Id });
    } catch (error) {
      this.deps.logger.error(Text.UNABLE_TO_SEND, error);
    }
  }

  private typing(item: Item): void {
    if (isFromCustomer(item)) return;
    // "" for an advisor without a name: the view says Advisor in the visitor's language.
    const name = item.DisplayName?.trim() ?? "";
    this.store.dispatch({ type: "agentTyping", name });
    this.agentTyping.start();
  }

  /** Send an event; settles (never rejects) when the client is done with it. */
  private sendEvent(contentType: string, content?: string): Promise<void> {
    const connection = this.connection;
    if (!connection) return Promise.resolve();
    return connection.sendEvent(contentType, content).catch((error: unknown) => {
      this.deps.logger.warn(`sendEvent ${contentType} failed`, error);
    });
  }

  private async connectionBroken(): Promise<void> {
    const connection = this.connection;
    const active = this.store.getState().active;
    this.store.dispatch({ type: "connectionBroken" });
    // Still active (not ended, not closed): the participant is disconnected and forgotten.
    if (connection && active) {
      this.deps.storage.clear();
      await this.disconnect(connection);
    }
  }

  /** The chat has ended: nothing is left to resume on the next page, so it is forgotten. */
  private chatOver(): void {
    this.agentTyping.stop();
    this.botLoading.stop();
    this.deps.storage.clear();
  }

  private fail(): void {
    this.connection?.dispose();
    this.deps.storage.clear();
    this.reset();
    this.store.dispatch({ type: "failed" });
    this.errorNotice.start();
  }

  private reset(): void {
    this.generation++;
    if (this.resumeTimer !== null) this.timers.clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
    this.shownWhenConnected = null;
    this.connection = null;
    this.chat = null;
    this.ledger.clear();
    this.early = [];
    this.readReceipts.clear();
    this.thumbnails.clear();
    this.told.clear();
    this.lastTypingAt = null;
    this.agentTyping.stop();
    this.botLoading.stop();
    this.fileNotice.stop();
  }

  /** Minimise: the window hides, the chat stays active. */
  minimise(): void {
    const state = this.store.getState();
    // Asked while the chat is still connecting: it connects minimised.
    if (state.loading && state.chatExists && !state.active) this.shownWhenConnected = false;
    if (!state.visible) return;
    this.store.dispatch({ type: "minimise" });
    this.save();
  }

  /** Close: disconnect when the chat has not ended and the participant is still connected; clear. */
  async close(): Promise<void> {
    const connection = this.connection;
    const active = this.store.getState().active;
    this.store.dispatch({ type: "closeStarted" });
    // Still connecting: the connection, when it comes, is disconnected.
    if (!connection) this.endedEarly.add(this.generation);
    if (connection && active) await this.disconnect(connection);
    connection?.dispose();
    this.deps.storage.clear();
    this.reset();
    this.store.dispatch({ type: "closed" });
  }

  /** The host's forget() (a site's log-out): the remembered chat forgotten, any chat ended. */
  async forget(): Promise<void> {
    this.deps.gateway.forget?.();
    if (this.store.getState().chatExists) await this.close();
  }

  private async disconnect(connection: ChatConnection): Promise<void> {
    try {
      await connection.disconnect();
    } catch (error) {
      this.deps.logger.warn("disconnectParticipant failed", error);
    }
  }

  /** "Start a new chat" once the chat has ended (issue 24): close it, then start another. */
  async newChat(jwt: string | undefined): Promise<void> {
    await this.close();
    await this.start(jwt);
  }

  /** Send what the visitor typed: trimmed, never empty, only while active and no bot is active. */
  async send(text: string): Promise<boolean> {
    const message = text.trim();
    const state = this.store.getState();
    const connection = this.connection;
    if (message === "" || !state.active || state.botActive || !connection) return false;
    await this.sendAsCustomer(connection, message);
    return true;
  }

  /**
   * A bot option: only while the bot is active; bot active goes off at once, then its title is
   * sent and shown (the bot may offer its next choice before the send is acknowledged).
   */
  async choose(title: string): Promise<void> {
    const connection = this.connection;
    if (!this.store.getState().botActive || !connection) return;
    this.store.dispatch({ type: "optionChosen" });
    await this.sendAsCustomer(connection, title);
  }

  /** Show the message at once as sending, then send it (the client retries until stored or refused). */
  private async sendAsCustomer(
    connection: ChatConnection,
    message: string,
    clientToken = newClientToken(),
  ): Promise<void> {
    const entry: TextEntry = {
      kind: "text",
      id: `local:${clientToken}`,
      absoluteTime: new Date(this.timers.now()).toISOString(),
      content: message,
      contentType: ContentType.TEXT_PLAIN,
      participantRole: "customer",
      displayName: this.chat ? Text.CUSTOMER : "",
      delivery: "sending",
      clientToken,
    };
    this.store.dispatch({ type: "messageQueued", entry });
    this.save();
    await this.deliver(connection, entry);
  }

  /** "Retry" on a message that was not sent: the same ClientToken, so it is stored once. */
  async retry(localId: string): Promise<void> {
    const connection = this.connection;
    const entry = this.store.getState().entries.find((e) => e.id === localId);
    if (!connection || entry?.kind !== "text" || entry.delivery !== "failed") return;
    this.store.dispatch({ type: "messageRetried", localId });
    await this.deliver(connection, entry);
  }

  private async deliver(connection: ChatConnection, entry: TextEntry): Promise<void> {
    try {
      const sent = await connection.sendMessage(
        entry.content,
        entry.contentType,
        entry.clientToken,
      );
      this.ledger.markSeen(sent.Id);
      this.store.dispatch({
        type: "messageStored",
        localId: entry.id,
        id: sent.Id,
        absoluteTime: sent.AbsoluteTime,
      });
      const { delivery: _stored, ...message } = entry;
      this.tell({ ...message, id: sent.Id, absoluteTime: sent.AbsoluteTime });
      this.save();
      this.succeeded();
    } catch (error) {
      this.deps.logger.error(Text.UNABLE_TO_SEND, error);
      this.store.dispatch({ type: "messageFailed", localId: entry.id });
      this.save();
    }
  }

  /** Any typed text sends a typing event, at most one per 10 s. */
  typed(text: string): void {
    if (text === "" || !this.connection || !this.store.getState().active) return;
    const now = this.timers.now();
    if (this.lastTypingAt !== null && now - this.lastTypingAt < TYPING_THROTTLE_MS) return;
    this.lastTypingAt = now;
    void this.sendEvent(ContentType.TYPING);
  }

  /**
   * Attach a file (docs/decisions.md #8): the accepted kinds up to 20 MB, with upload progress. A file
   * refused or not uploaded shows "This file can't be sent" for 5 s; the chat goes on.
   */
  async attach(file: File): Promise<void> {
    const connection = this.connection;
    if (!connection || !this.store.getState().active) return;
    const problem = await uploadAttachment(connection, file, this.store, this.deps.logger);
    if (connection !== this.connection) return;
    if (problem === null) {
      this.succeeded();
      return;
    }
    this.store.dispatch({ type: "fileRejected", reason: problem });
    this.fileNotice.start();
  }

  /** Tell the host page about a message once, if the transcript shows it (not a bot's echo). */
  private tell(entry: Entry): void {
    if (this.told.has(entry.id)) return;
    if (!this.store.getState().entries.some((e) => e.id === entry.id)) return;
    this.told.add(entry.id);
    this.onMessage(entry);
  }

  /** The next successful action (a message or a file sent) clears the file notice. */
  private succeeded(): void {
    this.fileNotice.stop();
    this.store.dispatch({ type: "fileNoticeCleared" });
  }

  /** Download an attachment sent in the chat; `onProgress` gets the fraction received. */
  async download(
    attachmentId: string,
    onProgress?: (fraction: number) => void,
  ): Promise<Blob | null> {
    if (!this.connection) return null;
    try {
      return await this.connection.downloadAttachment(attachmentId, onProgress);
    } catch (error) {
      this.deps.logger.error("downloadAttachment failed", error);
      return null;
    }
  }

  /**
   * An image attachment's bytes for its thumbnail, or null over THUMBNAIL_MAX_BYTES. Fetched
   * once a chat; a failed fetch is tried again the next time the thumbnail is shown.
   */
  thumbnail(attachmentId: string): Promise<Blob | null> {
    const cached = this.thumbnails.get(attachmentId);
    if (cached) return cached;
    const loading = this.download(attachmentId).then((blob) => {
      if (blob === null) this.thumbnails.delete(attachmentId);
      return blob !== null && blob.size <= THUMBNAIL_MAX_BYTES ? blob : null;
    });
    this.thumbnails.set(attachmentId, loading);
    return loading;
  }

  /** Keep the chat for the next page while it is connected and active (not ended, not closed). */
  private save(): void {
    const state = this.store.getState();
    if (!this.chat || !this.connection || !state.active) return;
    const unsent = state.entries
      .flatMap((e) =>
        e.kind === "text" && e.delivery === "sending" && e.clientToken
          ? [{ clientToken: e.clientToken, content: e.content }]
          : [],
      )
      .slice(0, MAX_UNSENT);
    this.deps.storage.save({
      chat: this.chat,
      visible: state.visible,
      handledUntil: this.ledger.handledUntil,
      ...(unsent.length > 0 ? { unsent } : {}),
      ...(state.unread > 0 ? { unread: state.unread } : {}),
    });
  }

  /** Stop timers and drop subscriptions (element removed from the page); the chat itself stays. */
  dispose(): void {
    this.connection?.dispose();
    this.errorNotice.stop();
    this.reset();
    // As new: mounted again (React's StrictMode runs effects twice), resume() starts over.
    this.store.dispatch({ type: "closed" });
  }
}
