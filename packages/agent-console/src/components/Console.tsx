/** The signed-in console: availability, the live queue, the advisor's chats and the one in view. */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type {
  ActiveChat,
  Advisor,
  AdvisorAvailability,
  MentionEvent,
  QueuedContact,
} from "@chat-widget/protocol";
import type { AgentApi } from "../api/agent-api.js";
import { errorText } from "../api/errors.js";
import { subscribeAgentEvents, type EventHandlers } from "../api/events.js";
import { ConsoleChats } from "../chat/console-chats.js";
import { ChatsStore } from "../state/chats-store.js";
import { applyQueueChange } from "../state/queue.js";
import { AvailabilityToggle } from "./AvailabilityToggle.js";
import { ChatTabs, tabId } from "./ChatTabs.js";
import { ChatView, type ChatActions } from "./ChatView.js";
import { MetricsChart } from "./MetricsChart.js";
import { QueueList } from "./QueueList.js";
import { CannedManager } from "../canned/CannedManager.js";
import { useCannedList, type CannedAccess } from "../canned/use-canned-list.js";
import type { TransferAccess } from "../transfer/TransferDialog.js";
import { HistoryView } from "../history/HistoryView.js";
import type { HistoryReads } from "../history/use-history.js";
import { useRoute } from "../history/use-route.js";
import type { TagsAccess } from "../wrap-up/TagsEditor.js";
import { useAlerts } from "../notify/alerts.js";
import { AlertSettings } from "../notify/AlertSettings.js";
import { useConsoleAlerts } from "../notify/use-console-alerts.js";
import { ShortcutsDialog } from "../shortcuts/ShortcutsDialog.js";
import { useShortcuts } from "../shortcuts/use-shortcuts.js";
import type { NotesAccess } from "./use-notes.js";
import type { VisitorReads } from "./visitor-reads.js";

export interface ConsoleProps {
  api: AgentApi;
  token: string;
  advisor: Advisor;
  onAdvisor(advisor: Advisor): void;
  /** Signed out locally; `problem` says why the server's sign-out failed, if it did. */
  onSignOut(problem?: string): void;
  /** Tests give their own chats controller and event source. */
  createChats?: (store: ChatsStore) => ConsoleChats;
  /** Subscribes to the live updates (default: the agent API's event stream). */
  subscribeEvents?: (handlers: EventHandlers) => () => void;
}

/** Shown on the sign-in form when the server ended this sign-in (issue 57). */
export const SIGNED_OUT = "You were signed out. Sign in again.";

const toInfo = (c: ActiveChat) => ({
  ContactId: c.ContactId,
  InitialContactId: c.InitialContactId,
  ParticipantId: c.ParticipantId,
  ParticipantToken: c.ParticipantToken,
  CustomerName: c.CustomerName,
  Attributes: c.Attributes,
  AttributeSources: c.AttributeSources,
});

export function Console({
  api,
  token,
  advisor,
  onAdvisor,
  onSignOut,
  createChats,
  subscribeEvents,
}: ConsoleProps) {
  const store = useMemo(() => new ChatsStore(), []);
  const chats = useMemo(
    () => (createChats ? createChats(store) : new ConsoleChats({ api, token, store })),
    [api, token, store, createChats],
  );
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  // The newest onSignOut, for the events stream opened once per sign-in.
  const latestSignOut = useRef(onSignOut);
  const latestMention = useRef<(m: MentionEvent) => void>(() => {});
  useEffect(() => {
    latestSignOut.current = onSignOut;
  });
  const [queue, setQueue] = useState<QueuedContact[]>([]);
  const [live, setLive] = useState(true);
  // How often each chat's visitor reported another page: their panel reads it again on a change.
  const [visitorMoves, setVisitorMoves] = useState<Record<string, number>>({});
  // After a chat closes, keyboard focus moves to the tab of the chat now in view.
  const [focusTab, setFocusTab] = useState<string | null>(null);
  useEffect(() => {
    if (focusTab) document.getElementById(tabId(focusTab))?.focus();
  }, [focusTab]);

  useEffect(() => {
    chats.start();
    const handlers: EventHandlers = {
      queue: (data) => setQueue(data.Contacts),
      queueChange: (change) => setQueue((queue) => applyQueueChange(queue, change)),
      chats: (data) => chats.sync(data.Chats.map(toInfo)),
      mention: (m) => latestMention.current(m),
      visitor: ({ ContactId }) =>
        setVisitorMoves((moves) => ({ ...moves, [ContactId]: (moves[ContactId] ?? 0) + 1 })),
      trouble: (down) => setLive(!down),
      signedOut: () => latestSignOut.current(SIGNED_OUT),
    };
    const stop = subscribeEvents
      ? subscribeEvents(handlers)
      : subscribeAgentEvents(api.eventsUrl(), token, handlers);
    return () => {
      stop();
      chats.stop();
    };
  }, [api, token, chats, subscribeEvents]);

  useEffect(() => {
    const onVisible = () => {
      const selected = store.getSnapshot().selected;
      if (selected && document.visibilityState === "visible") chats.sendReadReceipts(selected);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [chats, store]);

  const alerts = useAlerts();
  useConsoleAlerts(queue, snapshot.chats, alerts.alert);
  // A mention (issue 60): said in the console and, when they are on, as a notification.
  const [mention, setMention] = useState<MentionEvent | null>(null);
  useEffect(() => {
    latestMention.current = (m) => {
      setMention(m);
      alerts.alert(`${m.From} mentioned you`, m.Excerpt, `mention-${m.NoteId}`);
    };
  });
  const [showShortcuts, setShowShortcuts] = useState(false);

  const changeAvailability = async (next: AdvisorAvailability) => {
    const me = await api.setAvailability(token, next);
    onAdvisor(me.Advisor);
  };
  const accept = async (contactId: string) => {
    const chat = await api.accept(token, contactId);
    // The accepted chat is in view at once (its tab exists before it has connected), so what the
    // advisor types or attaches next goes to it, not to the chat that was in view.
    const opening = chats.open(chat);
    chats.select(contactId);
    await opening;
    // Keyboard users land in the new chat's composer.
    setTimeout(
      () => document.querySelector<HTMLTextAreaElement>(".chat-view textarea")?.focus(),
      0,
    );
  };
  // The advisor always gets out; a failed server sign-out is shown on the sign-in screen.
  const signOut = async () => {
    try {
      await api.signOut(token);
      onSignOut();
    } catch (error) {
      onSignOut(`Sign-out failed: ${errorText(error)}`);
    }
  };
  const loadMetrics = useCallback(() => api.metricsText(token), [api, token]);
  const cannedAccess = useMemo<CannedAccess>(
    () => ({
      list: () => api.canned(token),
      create: (input) => api.createCanned(token, input),
      update: (cannedId, input) => api.updateCanned(token, cannedId, input),
      remove: (cannedId) => api.deleteCanned(token, cannedId),
    }),
    [api, token],
  );
  const canned = useCannedList(cannedAccess);
  const [managingCanned, setManagingCanned] = useState(false);
  const notesAccess = useMemo<NotesAccess>(
    () => ({
      list: (contactId) => api.notes(token, contactId),
      add: (contactId, body, clientToken) => api.addNote(token, contactId, body, clientToken),
    }),
    [api, token],
  );
  const [route, go] = useRoute();
  const tagsAccess = useMemo<TagsAccess>(
    () => ({
      tags: (contactId) => api.tags(token, contactId),
      setTags: (contactId, tags) => api.setTags(token, contactId, tags),
      suggest: (prefix) => api.tagSuggestions(token, prefix),
    }),
    [api, token],
  );
  const historyReads = useMemo<HistoryReads>(
    () => ({
      list: (query) => api.history(token, query),
      advisors: () => api.historyAdvisors(token),
      transcript: (contactId, after) => api.transcript(token, contactId, after),
    }),
    [api, token],
  );
  const transferAccess = useMemo<TransferAccess>(
    () => ({
      targets: (contactId) => api.transferTargets(token, contactId),
      transfer: (contactId, request) => api.transfer(token, contactId, request),
    }),
    [api, token],
  );
  const visitorReads = useMemo<VisitorReads>(
    () => ({
      visitor: (contactId) => api.visitor(token, contactId),
      earlier: (contactId) => api.earlier(token, contactId),
      transcript: (contactId, after) => api.transcript(token, contactId, after),
    }),
    [api, token],
  );

  const actions: ChatActions = {
    send: (id, text) => chats.send(id, text),
    retry: (id, clientToken) => chats.retry(id, clientToken),
    typing: (id) => chats.typing(id),
    attach: (id, file) => void chats.sendAttachment(id, file),
    download: (id, attachmentId, name) => void chats.download(id, attachmentId, name),
    older: (id) => chats.loadOlder(id),
    end: (id) => chats.end(id),
    close: (id) => {
      chats.close(id);
      setFocusTab(store.getSnapshot().selected);
    },
    dismissError: (id) => store.setChatError(id, null),
  };
  useShortcuts({
    next: () => selectNext(1),
    previous: () => selectNext(-1),
    accept: () => {
      const oldest = queue[0];
      if (route.view !== "chats") go({ view: "chats" });
      if (!oldest) return;
      if (blocked) store.setError(blocked);
      else
        void accept(oldest.ContactId).catch((e: unknown) =>
          store.setError(`The chat was not accepted: ${errorText(e)}`),
        );
    },
    help: () => setShowShortcuts(true),
  });
  const selectNext = (step: number) => {
    const ids = snapshot.chats.map((c) => c.info.ContactId);
    if (ids.length === 0) return;
    const at = ids.indexOf(snapshot.selected ?? "");
    const id = ids[(at + step + ids.length) % ids.length]!;
    if (route.view !== "chats") go({ view: "chats" });
    chats.select(id);
    setTimeout(() => document.getElementById(tabId(id))?.focus(), 0);
  };
  const open = snapshot.chats.filter((c) => !c.ended).length;
  const blocked =
    advisor.Availability !== "Available"
      ? "Set yourself Available to accept chats."
      : store.hasRoom
        ? null
        : `You have ${open} chats open, the most at once.`;
  const current = snapshot.chats.find((c) => c.info.ContactId === snapshot.selected);

  return (
    <div className="console">
      <header className="top">
        <h1>Agent console</h1>
        <nav aria-label="Console views" className="views">
          <a href="#/" aria-current={route.view === "chats" ? "page" : undefined}>
            Chats
          </a>
          <a href="#/history" aria-current={route.view === "history" ? "page" : undefined}>
            History
          </a>
        </nav>
        <span className="advisor">Signed in as {advisor.Name}</span>
        <AvailabilityToggle availability={advisor.Availability} change={changeAvailability} />
        <AlertSettings alerts={alerts} />
        <button type="button" onClick={() => setManagingCanned(true)}>
          Canned responses
        </button>
        <button type="button" aria-keyshortcuts="?" onClick={() => setShowShortcuts(true)}>
          Shortcuts
        </button>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      {showShortcuts && <ShortcutsDialog close={() => setShowShortcuts(false)} />}
      {managingCanned && <CannedManager canned={canned} close={() => setManagingCanned(false)} />}
      {mention && (
        <p className="banner mention" role="status">
          {mention.From} mentioned you in a note: “{mention.Excerpt}”{" "}
          <button type="button" onClick={() => setMention(null)} aria-label="Dismiss mention">
            ×
          </button>
        </p>
      )}
      {canned.error && (
        <p className="error banner" role="status">
          {canned.error}
        </p>
      )}
      {(snapshot.error || !live) && (
        <div role="alert" className="error banner">
          {snapshot.error ?? "Live updates are interrupted; reconnecting…"}
          {snapshot.error && (
            <button type="button" onClick={() => store.setError(null)} aria-label="Dismiss error">
              ×
            </button>
          )}
        </div>
      )}
      {route.view === "history" ? (
        <main className="main history-main">
          <HistoryView
            reads={historyReads}
            tagsAccess={tagsAccess}
            open={route.contactId}
            show={(contactId) => go({ view: "history", contactId })}
          />
        </main>
      ) : (
        <div className="layout">
          <div className="side">
            <QueueList contacts={queue} blocked={blocked} accept={accept} />
            <ChatTabs
              chats={snapshot.chats}
              selected={snapshot.selected}
              select={(id) => chats.select(id)}
            />
            <MetricsChart load={loadMetrics} />
          </div>
          <main className="main">
            {current ? (
              <ChatView
                key={current.info.ContactId}
                chat={current}
                actions={actions}
                visitorReads={visitorReads}
                notesAccess={notesAccess}
                transferAccess={transferAccess}
                tagsAccess={tagsAccess}
                wrapUp={(contactId, body) => api.wrapUp(token, contactId, body)}
                canned={canned.responses}
                advisorName={advisor.Name}
                visitorMoves={visitorMoves[current.info.ContactId] ?? 0}
              />
            ) : (
              <p className="empty">No chat in view.</p>
            )}
          </main>
        </div>
      )}
    </div>
  );
}
