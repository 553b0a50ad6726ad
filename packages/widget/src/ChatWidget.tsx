/** The widget's React root: one controller, its state read with useSyncExternalStore. */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { Ref } from "react";
import { Button, LoadingIndicator } from "./components/Button.js";
import { ChatWindow } from "./components/ChatWindow.js";
import type { ChatWindowActions } from "./components/ChatWindow.js";
import { ErrorNotice } from "./components/ErrorNotice.js";
import { applyPrimaryContrast } from "./contrast.js";
import type { ChatWidgetApi, HostEmit } from "./host-api.js";
import { ViewsContext } from "./lazy-views/context.js";
import type { ViewsSource } from "./lazy-views/source.js";
import { WidgetController } from "./state/controller.js";
import type { ControllerDeps } from "./state/controller.js";
import type { ColorScheme, LauncherSetting } from "./settings.js";
import { styles } from "./styles.js";
import { TextsContext } from "./texts-context.js";
import { en, type Texts } from "./texts.js";
import { useHostApi } from "./use-host-api.js";
import { useLatest } from "./use-latest.js";

/**
 * What the widget needs: the controller's parts, its rare views (loaded once a chat exists,
 * opened or resumed), its settings, and the visitor's texts when not English.
 */
export interface WidgetDeps extends ControllerDeps {
  views: ViewsSource;
  /** Light, dark, or (by default) as the visitor's system prefers. */
  colorScheme?: ColorScheme;
  /** data-unread-sound: a chime for each message that arrives unread. */
  unreadSound?: boolean;
  /** data-title-flash: the page's title takes turns with the unread count. */
  titleFlash?: boolean;
  /** The script tag's CSP nonce, on the widget's style elements. */
  nonce?: string;
  /** data-launcher="hidden": no floating button; the host page opens the chat (issue 25). */
  launcher?: LauncherSetting;
  loadTexts?: () => Promise<Texts | null>;
}

export interface ChatWidgetProps {
  jwt?: string;
  deps: WidgetDeps;
  /** The host page's API: open(), minimise(), end(), unreadCount. */
  ref?: Ref<ChatWidgetApi>;
  /** The host page's events (the element dispatches them on itself). */
  onEvent?: HostEmit;
}

export function ChatWidget({ jwt, deps, ref, onEvent }: ChatWidgetProps) {
  const emit = useLatest(onEvent);
  const [controller] = useState(
    () => new WidgetController(deps, (entry) => emit.current?.("chat-widget:message", entry)),
  );
  const state = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const root = useRef<HTMLDivElement>(null);
  const jwtRef = useLatest(jwt);
  // A layout effect, before the host API's: a call the host page queued (open()) finds the
  // stored chat already being resumed, never starting a second one beside it.
  useLayoutEffect(() => {
    controller.resume();
    return () => controller.dispose();
  }, [controller]);
  const launcherHidden = deps.launcher === "hidden";
  useHostApi(ref, controller, state, {
    root,
    jwt: () => jwtRef.current,
    emit: () => emit.current,
    launcherHidden,
  });
  useLayoutEffect(() => {
    if (root.current) applyPrimaryContrast(root.current);
  }, []);

  // English at once; the visitor's language as soon as its table arrives.
  const [texts, setTexts] = useState<Texts>(en);
  useEffect(() => {
    let live = true;
    void deps.loadTexts?.().then((loaded) => {
      if (live && loaded) setTexts(loaded);
    });
    return () => {
      live = false;
    };
  }, [deps]);

  const views = useSyncExternalStore(deps.views.subscribe, deps.views.current);
  useEffect(() => {
    if (state.chatExists) deps.views.load();
  }, [deps, state.chatExists]);

  const actions = useMemo<ChatWindowActions>(
    () => ({
      minimise: () => controller.minimise(),
      close: () => void controller.close(),
      send: (text) => void controller.send(text),
      typed: (text) => controller.typed(text),
      choose: (title) => void controller.choose(title),
      retry: (localId) => void controller.retry(localId),
      attach: (file) => void controller.attach(file),
      download: (id, onProgress) => controller.download(id, onProgress),
      thumbnail: (id) => controller.thumbnail(id),
      newChat: () => void controller.newChat(jwtRef.current),
      older: () => void controller.loadOlder(),
    }),
    // Stable while the host changes the jwt: the actions read it when they run.
    [controller, jwtRef],
  );

  // The launcher takes focus back from the window or the error notice, never at page load:
  // whether the window was open before is state adjusted while rendering, as React advises.
  const open = state.visible || state.error;
  const [shown, setShown] = useState({ open, before: false });
  if (shown.open !== open) setShown({ open, before: shown.open });

  let view;
  if (state.error) view = <ErrorNotice />;
  else if (state.visible) view = <ChatWindow state={state} actions={actions} />;
  else if (launcherHidden) view = state.loading ? <LoadingIndicator alone /> : null;
  else {
    view = (
      <Button
        loading={state.loading}
        focus={shown.before}
        unread={state.unread}
        onClick={() => controller.click(jwt)}
      />
    );
  }

  return (
    <div
      className={`cw ${deps.colorScheme ?? "auto"}`}
      ref={root}
      lang={texts.LANG}
      dir={texts.DIR}
    >
      <style nonce={deps.nonce}>{styles}</style>
      {views && <style nonce={deps.nonce}>{views.viewStyles}</style>}
      <TextsContext.Provider value={texts}>
        <ViewsContext.Provider value={views}>{view}</ViewsContext.Provider>
        {views && state.active && (
          <views.PageReport gateway={deps.gateway} storage={deps.storage} />
        )}
        {views && (deps.unreadSound || deps.titleFlash) && (
          <views.UnreadAlerts
            unread={state.unread}
            sound={deps.unreadSound}
            titleFlash={deps.titleFlash}
          />
        )}
      </TextsContext.Provider>
    </div>
  );
}
