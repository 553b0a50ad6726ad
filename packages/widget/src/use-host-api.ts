/**
 * The host page's side of the widget (issue 25): the element's methods through a React ref,
 * and its events raised from the widget's state as it changes (open, minimise, unread, ended;
 * messages come from the controller, which knows live ones from history).
 */
import { useEffect, useImperativeHandle, useRef } from "react";
import type { Ref, RefObject } from "react";
import type { ChatWidgetApi, HostEmit } from "./host-api.js";
import type { WidgetController } from "./state/controller.js";
import type { WidgetState } from "./state/reducer.js";
import { useLatest } from "./use-latest.js";

export function useHostApi(
  ref: Ref<ChatWidgetApi> | undefined,
  controller: WidgetController,
  state: WidgetState,
  options: {
    jwt: () => string | undefined;
    emit: () => HostEmit | undefined;
    /** data-launcher="hidden": focus goes back to where the host had it when the window hides. */
    launcherHidden: boolean;
    /** The widget's root element, to tell whether focus was in the widget. */
    root: RefObject<HTMLElement | null>;
  },
): void {
  const returnFocus = useRef<HTMLElement | null>(null);
  const jwt = useLatest(options.jwt);
  useImperativeHandle(
    ref,
    () => ({
      open() {
        if (controller.getSnapshot().visible) return;
        const active = document.activeElement;
        returnFocus.current =
          active instanceof HTMLElement && active !== document.body ? active : null;
        controller.open(jwt.current());
      },
      minimise() {
        controller.minimise();
      },
      end() {
        if (controller.getSnapshot().chatExists) void controller.close();
      },
      forget() {
        void controller.forget();
      },
      get unreadCount() {
        return controller.getSnapshot().unread;
      },
    }),
    // The jwt is read when open() is called.
    [controller, jwt],
  );

  const before = useRef(state);
  useEffect(() => {
    const was = before.current;
    before.current = state;
    const emit = options.emit();
    if (!was.visible && state.visible) emit?.("chat-widget:open", null);
    if (was.visible && !state.visible) {
      if (state.chatExists && !state.loading) emit?.("chat-widget:minimise", null);
      // Only when the widget had focus (Escape, its minimise or close button), never taking it
      // from where the visitor went meanwhile.
      const from = document.activeElement;
      const root = options.root.current;
      const host = (root?.getRootNode() as ShadowRoot | undefined)?.host;
      const widgetHadFocus =
        !from || from === document.body || from === host || !!root?.contains(from);
      if (options.launcherHidden && widgetHadFocus && returnFocus.current?.isConnected)
        returnFocus.current.focus();
      returnFocus.current = null;
    }
    if (was.unread !== state.unread) emit?.("chat-widget:unread", { count: state.unread });
    if (was.active && !state.active) emit?.("chat-widget:ended", null);
  });
}
