"use client";
/**
 * The widget as a React component, for a site built with React:
 *
 * ```tsx
 * <ChatWidget server="https://chat.example.com" onUnread={setUnread} ref={chat} />
 * ```
 *
 * It renders an empty `<div>` (on the server too: nothing of it runs there) and, once mounted,
 * the widget inside that div's shadow root, so neither page's styles touch the other. The
 * options are read when it mounts; give it a new `key` to apply changed ones. `ref` gives the
 * host API (`open()`, `minimise()`, `end()`, `forget()`, `unreadCount`), the `on…` props its events.
 */
import { useEffect, useRef, useState } from "react";
import type { Ref } from "react";
import { createPortal } from "react-dom";
import { browserDeps } from "../browser-deps.js";
import { ChatWidget as WidgetTree } from "../ChatWidget.js";
import type { WidgetDeps } from "../ChatWidget.js";
import { registerFonts } from "../fonts.js";
import { consoleLogger } from "../logger.js";
import type { ChatWidgetApi, HostEmit } from "../host-api.js";
import type { Entry } from "../state/entries.js";
import { useLatest } from "../use-latest.js";
import { moduleLoaders } from "./loaders.js";
import { settingsFromOptions } from "./options.js";
import type { ChatWidgetOptions } from "./options.js";

export interface ChatWidgetProps extends ChatWidgetOptions {
  /** The visitor's signed attributes (a JWT), as the element's `jwt` attribute. */
  jwt?: string;
  ref?: Ref<ChatWidgetApi>;
  onOpen?: () => void;
  onMinimise?: () => void;
  /** A message in the transcript: the advisor's, the bot's, or the visitor's once stored. */
  onMessage?: (entry: Entry) => void;
  onUnread?: (count: number) => void;
  /** The chat ended: either side ended it, or its connection broke for good. */
  onEnded?: () => void;
}

interface Mounted {
  shadow: ShadowRoot;
  deps: WidgetDeps;
}

export function ChatWidget({
  jwt,
  ref,
  onOpen,
  onMinimise,
  onMessage,
  onUnread,
  onEnded,
  ...options
}: ChatWidgetProps) {
  const host = useRef<HTMLDivElement>(null);
  const optionsAtMount = useRef(options);
  const deps = useRef<WidgetDeps | null>(null);
  const [mounted, setMounted] = useState<Mounted | null>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    if (!deps.current) {
      let settings;
      try {
        settings = settingsFromOptions(optionsAtMount.current, location.href);
      } catch (error) {
        // A wrong option leaves the chat out, not the host's page (an error thrown here would
        // take down the host's whole React tree).
        consoleLogger.error(error);
        return;
      }
      registerFonts(document, settings.scriptUrl, settings.nonce);
      deps.current = browserDeps(settings, moduleLoaders);
    }
    setMounted({
      shadow: element.shadowRoot ?? element.attachShadow({ mode: "open" }),
      deps: deps.current,
    });
  }, []);

  const handlers = useLatest({ onOpen, onMinimise, onMessage, onUnread, onEnded });
  const [emit] = useState(() => {
    const toHandlers: HostEmit = (name, detail) => {
      const on = handlers.current;
      if (name === "chat-widget:open") on.onOpen?.();
      else if (name === "chat-widget:minimise") on.onMinimise?.();
      else if (name === "chat-widget:message") on.onMessage?.(detail as Entry);
      else if (name === "chat-widget:unread") on.onUnread?.((detail as { count: number }).count);
      else on.onEnded?.();
    };
    return toHandlers;
  });

  return (
    <div ref={host} data-chat-widget="">
      {mounted &&
        createPortal(
          <WidgetTree jwt={jwt} deps={mounted.deps} ref={ref} onEvent={emit} />,
          mounted.shadow,
        )}
    </div>
  );
}
