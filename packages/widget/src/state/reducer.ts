/**
 * The widget's state machine (docs/product.md §4): one reducer whose actions are the spec's transitions.
 * Pure: side effects (calls, timers, storage) live in `controller.ts`.
 */
import type { Item } from "@chat-widget/protocol";
import { BOT_INPUT_SENTINEL, classify, isChatEnded, isFromCustomer, isMessage } from "./entries.js";
import type { FileProblem } from "./attachments.js";
import type { Entry, TextEntry } from "./entries.js";

export interface Upload {
  id: string;
  name: string;
  /** Fraction done in [0, 1], or null while unknown. */
  progress: number | null;
}

export interface WidgetState {
  /** A chat exists (starting, open or minimised). */
  chatExists: boolean;
  visible: boolean;
  active: boolean;
  loading: boolean;
  error: boolean;
  botActive: boolean;
  botLoading: boolean;
  agentTyping: boolean;
  /** Who is typing, while agentTyping: "Sam is typing…" (issue 24). */
  typingName: string;
  entries: readonly Entry[];
  /** Ids of customer messages that are bot echoes (docs/decisions.md #4): never shown. */
  hiddenIds: readonly string[];
  /** Bot contents echoed back whose customer copy has not been seen yet. */
  pendingEchoes: readonly string[];
  uploads: readonly Upload[];
  /** A file that could not be sent: the reason shown beside "This file can't be sent" (for 5 s). */
  fileRejected: FileProblem | null;
  /** The connection dropped while the chat is active; the client is reconnecting. */
  reconnecting: boolean;
  /** Advisor and bot messages that arrived while the window was hidden (issue 24). */
  unread: number;
  /** Older pages of the transcript than those restored, loaded on scrolling up (issue 61). */
  older: boolean;
}

export const initialState: WidgetState = {
  chatExists: false,
  visible: false,
  active: false,
  loading: false,
  error: false,
  botActive: false,
  botLoading: false,
  agentTyping: false,
  typingName: "",
  entries: [],
  hiddenIds: [],
  pendingEchoes: [],
  uploads: [],
  fileRejected: null,
  reconnecting: false,
  unread: 0,
  older: false,
};

export type Action =
  /** Click with no chat: loading on (then verify, start chat, connect). */
  | { type: "clickWithNoChat" }
  /** A stored chat is being resumed after navigation or reload (docs/decisions.md #6). */
  /** A stored chat resumes, with the messages it had unread. */
  | { type: "resumeStarted"; unread: number }
  /** The stored chat could not be resumed yet (the contact centre was not reached): it is tried again. */
  | { type: "resumeRetrying" }
  /** The connection is established: loading off, window visible (unless resumed minimised), chat active. */
  | { type: "connectionEstablished"; visible: boolean }
  /** Any failure: visible, active and loading off; error on (for 5 s). */
  | { type: "failed" }
  | { type: "errorElapsed" }
  /** Click with a chat existing but hidden: the window reopens. */
  | { type: "reopen" }
  /** Minimise: window hides, chat stays active. */
  | { type: "minimise" }
  /** Close, first half: loading on, hide, inactive. */
  | { type: "closeStarted" }
  /** Close, second half: transcript cleared, loading off. */
  | { type: "closed" }
  /** Connection broken: the chat can no longer be used. */
  | { type: "connectionBroken" }
  /** The websocket dropped (the chat goes on; the client reconnects) and came back. */
  | { type: "connectionLost" }
  | { type: "connectionRegained" }
  /** Agent typing event: the indicator shows (for 3 s). */
  | { type: "agentTyping"; name: string }
  | { type: "agentTypingElapsed" }
  | { type: "botLoadingElapsed" }
  /** An item from the websocket (live) or from getTranscript (history). */
  | { type: "itemReceived"; item: Item; live: boolean }
  /** An older page of history (oldest first), and whether there are older ones still. */
  | { type: "olderReceived"; items: readonly Item[]; more: boolean }
  /** A chunk of a streamed answer (the text so far): its entry grows in place. */
  | { type: "streamGrew"; item: Item }
  /** A customer message the widget writes (typed or a clicked option): shown at once, sending. */
  | { type: "messageQueued"; entry: TextEntry }
  /** It was stored: it takes the server's id and time (or gives way to its copy from the stream). */
  | { type: "messageStored"; localId: string; id: string; absoluteTime: string }
  /** It was refused for good: "Not sent", with Retry; or it is being sent again. */
  | { type: "messageFailed"; localId: string }
  | { type: "messageRetried"; localId: string }
  /** A read or delivered receipt for a message (a MESSAGEMETADATA item). */
  | { type: "receiptReceived"; item: Item }
  /** The automatic echo of a bot message was sent; its id is never shown. */
  | { type: "botEchoSent"; id: string }
  /** A bot option was clicked and sent: bot active turns off. */
  | { type: "optionChosen" }
  | { type: "uploadStarted"; upload: Upload }
  | { type: "uploadProgress"; id: string; progress: number }
  | { type: "uploadEnded"; id: string }
  /** A file was refused or its upload failed: the notice shows (for 5 s). */
  | { type: "fileRejected"; reason: FileProblem }
  /** The notice's 5 s elapsed, or the next action succeeded. */
  | { type: "fileNoticeCleared" };

function byTime(a: Entry, b: Entry): number {
  const ta = a.absoluteTime || "\uffff";
  const tb = b.absoluteTime || "\uffff";
  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

function removeOne(list: readonly string[], value: string): readonly string[] {
  const i = list.indexOf(value);
  return i < 0 ? list : [...list.slice(0, i), ...list.slice(i + 1)];
}

/** An outgoing entry once stored: the server's id and time, no delivery state. */
function stored(entry: TextEntry, id: string, absoluteTime: string): TextEntry {
  const { delivery: _done, ...rest } = entry;
  return { ...rest, id, absoluteTime };
}

function addEntry(state: WidgetState, entry: Entry, sorted: boolean): WidgetState {
  const same = entry.id === "" ? undefined : state.entries.find((e) => e.id === entry.id);
  // A streamed answer's entry grows, then its completed message takes its place.
  if (same?.kind === "text" && same.streaming)
    return { ...state, entries: state.entries.map((e) => (e === same ? entry : e)) };
  if (same) return state;
  if (
    entry.kind === "event" &&
    entry.id === "" &&
    state.entries.some(
      (e) => e.kind === "event" && e.event === entry.event && e.name === entry.name,
    )
  )
    return state;
  const entries = [...state.entries, entry];
  if (sorted) entries.sort(byTime);
  return { ...state, entries };
}

/**
 * An older page's entries before those shown: history only (no bot, echo or chat state changes);
 * a customer copy of a bot's message on the same page is its echo, not shown (decisions #4).
 */
function olderEntries(entries: readonly Entry[], items: readonly Item[]): readonly Entry[] {
  const known = new Set(entries.map((e) => e.id));
  const echoes: string[] = [];
  const older: Entry[] = [];
  for (const item of items) {
    const c = classify(item);
    if (c.kind === "botMessage" && c.content !== BOT_INPUT_SENTINEL) echoes.push(c.content);
    if (c.kind !== "entry" || known.has(c.entry.id)) continue;
    const { entry } = c;
    const echo =
      entry.kind === "text" && entry.participantRole === "customer"
        ? echoes.indexOf(entry.content)
        : -1;
    if (echo >= 0) echoes.splice(echo, 1);
    else older.push(entry);
  }
  return older.length ? [...older, ...entries].sort(byTime) : entries;
}

/** The chat can no longer be used: input disabled, no bot, no typing indicator. */
function inactive(state: WidgetState): WidgetState {
  return {
    ...state,
    // An answer the chat ended in the middle of stays as far as it came, for everyone to read.
    entries: state.entries.map((e) =>
      e.kind === "text" && e.streaming ? { ...e, streaming: false } : e,
    ),
    active: false,
    botActive: false,
    botLoading: false,
    agentTyping: false,
    reconnecting: false,
  };
}

function receive(state: WidgetState, item: Item, live: boolean): WidgetState {
  const c = classify(item);
  if (c.kind === "ignore") return state;
  if (c.kind === "botMessage") {
    const sentinel = c.content === BOT_INPUT_SENTINEL;
    const echoes = sentinel ? state.pendingEchoes : [...state.pendingEchoes, c.content];
    if (!live)
      return { ...state, pendingEchoes: echoes, botActive: sentinel ? state.botActive : true };
    // Bot loading shows (3 s); the "input" sentinel stops it and nothing is sent.
    return {
      ...state,
      pendingEchoes: echoes,
      botLoading: !sentinel,
      botActive: sentinel ? state.botActive : true,
    };
  }
  const entry = c.entry;
  let next = state;
  if (entry.kind === "text" && entry.participantRole === "customer") {
    if (state.hiddenIds.includes(entry.id))
      return { ...state, pendingEchoes: removeOne(state.pendingEchoes, entry.content) };
    if (
      state.pendingEchoes.includes(entry.content) &&
      !state.entries.some((e) => e.id === entry.id)
    ) {
      return {
        ...state,
        pendingEchoes: removeOne(state.pendingEchoes, entry.content),
        hiddenIds: [...state.hiddenIds, entry.id],
      };
    }
    if (!live) next = { ...next, botActive: false };
    // The stream brought a message the widget is still sending: that copy is the stored one.
    const local = next.entries.find(
      (e) => e.kind === "text" && e.delivery === "sending" && e.content === entry.content,
    );
    if (local && local.kind === "text" && !next.entries.some((e) => e.id === entry.id)) {
      const entries = next.entries.map((e) =>
        e === local ? stored(local, entry.id, entry.absoluteTime) : e,
      );
      return { ...next, entries };
    }
  }
  const before = next.entries;
  next = addEntry(next, entry, !live);
  // Counted while the window is hidden: the advisor's and the bot's messages, files and choices
  // (a streamed answer once, when complete).
  const added = next.entries !== before;
  if (added && live && !next.visible && entry.kind !== "event" && !isFromCustomer(item)) {
    next = { ...next, unread: next.unread + 1 };
  }
  if (entry.kind === "template") next = { ...next, botLoading: false };
  if (!isFromCustomer(item) && (isMessage(item) || entry.kind === "attachment"))
    next = { ...next, agentTyping: false };
  if (isChatEnded(item) && !isFromCustomer(item)) next = inactive(next);
  return next;
}

/** The visitor's message the receipt is for: delivered, then read (never back). */
function applyReceipt(state: WidgetState, item: Item): WidgetState {
  const metadata = item.MessageMetadata;
  const receipts = metadata?.Receipts ?? [];
  const read = receipts.some((r) => r.ReadTimestamp);
  if (!metadata?.MessageId || (!read && !receipts.some((r) => r.DeliveredTimestamp))) return state;
  const receipt: "read" | "delivered" = read ? "read" : "delivered";
  let changed = false;
  const entries = state.entries.map((e) => {
    if (e.kind !== "text" || e.id !== metadata.MessageId || e.participantRole !== "customer") {
      return e;
    }
    if (e.receipt === "read" || e.receipt === receipt) return e;
    changed = true;
    return { ...e, receipt };
  });
  return changed ? { ...state, entries } : state;
}

export function reducer(state: WidgetState, action: Action): WidgetState {
  switch (action.type) {
    case "clickWithNoChat":
      return { ...state, chatExists: true, loading: true, error: false };
    case "resumeStarted":
      return { ...state, chatExists: true, loading: true, unread: action.unread };
    case "resumeRetrying":
      return { ...state, reconnecting: true };
    case "connectionEstablished":
      return {
        ...state,
        loading: false,
        visible: action.visible,
        active: true,
        reconnecting: false,
        unread: action.visible ? 0 : state.unread,
      };
    case "failed":
      return { ...initialState, error: true };
    case "errorElapsed":
      return { ...state, error: false };
    case "reopen":
      return state.chatExists ? { ...state, visible: true, unread: 0 } : state;
    case "minimise":
      return { ...state, visible: false };
    case "closeStarted":
      return { ...state, loading: true, visible: false, active: false };
    case "closed":
      return initialState;
    case "connectionBroken":
      return inactive(state);
    case "connectionLost":
      return state.active ? { ...state, reconnecting: true } : state;
    case "connectionRegained":
      return state.reconnecting ? { ...state, reconnecting: false } : state;
    case "agentTyping":
      return { ...state, agentTyping: true, typingName: action.name };
    case "agentTypingElapsed":
      return { ...state, agentTyping: false };
    case "botLoadingElapsed":
      return { ...state, botLoading: false };
    case "itemReceived":
      return receive(state, action.item, action.live);
    case "olderReceived":
      return { ...state, older: action.more, entries: olderEntries(state.entries, action.items) };
    case "streamGrew": {
      const c = classify(action.item);
      return c.kind === "entry" && c.entry.kind === "text"
        ? addEntry(state, { ...c.entry, streaming: true }, false)
        : state;
    }
    case "messageQueued":
      return addEntry(state, action.entry, false);
    case "messageStored": {
      const known =
        state.hiddenIds.includes(action.id) || state.entries.some((e) => e.id === action.id);
      const entries = known
        ? state.entries.filter((e) => e.id !== action.localId)
        : state.entries.map((e) =>
            e.id === action.localId && e.kind === "text"
              ? stored(e, action.id, action.absoluteTime)
              : e,
          );
      return { ...state, entries };
    }
    case "messageFailed":
    case "messageRetried": {
      const delivery: TextEntry["delivery"] =
        action.type === "messageFailed" ? "failed" : "sending";
      const entries = state.entries.map((e) =>
        e.id === action.localId && e.kind === "text" ? { ...e, delivery } : e,
      );
      return { ...state, entries };
    }
    case "receiptReceived":
      return applyReceipt(state, action.item);
    case "botEchoSent": {
      if (state.hiddenIds.includes(action.id)) return state;
      const entries = state.entries.filter((e) => e.id !== action.id);
      return { ...state, entries, hiddenIds: [...state.hiddenIds, action.id] };
    }
    case "optionChosen":
      return { ...state, botActive: false };
    case "uploadStarted":
      return { ...state, uploads: [...state.uploads, action.upload] };
    case "uploadProgress":
      return {
        ...state,
        uploads: state.uploads.map((u) =>
          u.id === action.id ? { ...u, progress: action.progress } : u,
        ),
      };
    case "uploadEnded":
      return { ...state, uploads: state.uploads.filter((u) => u.id !== action.id) };
    case "fileRejected":
      return { ...state, fileRejected: action.reason };
    case "fileNoticeCleared":
      return state.fileRejected === null ? state : { ...state, fileRejected: null };
  }
}
