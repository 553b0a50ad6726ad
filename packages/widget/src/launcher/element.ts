/**
 * `<chat-widget>` itself, without React (issue 61): the custom element, its `jwt` attribute and
 * property, and the host page's API (host-api.ts), which holds calls until the React app is
 * there. The app comes at once (the npm package: element.ts) or, for the script tag, only on
 * the visitor's intent: until then the element shows a launcher painted by hand (paint.ts) and
 * React, the client and the window are not even downloaded (main.ts, app-main.ts).
 */
import { dispatchOn } from "../host-api.js";
import type { ChatWidgetApi, HostEmit } from "../host-api.js";
import type { PaintedLauncher } from "./paint.js";

/** What the element gives the app it mounts. */
export interface WidgetHooks {
  /** The app's API once it rendered (null when it unmounts): the queued calls run then. */
  ref: (api: ChatWidgetApi | null) => void;
  emit: HostEmit;
}

/** The app, mounted in the element's shadow root. */
export interface MountedWidget {
  render(jwt: string | undefined): void;
  unmount(): void;
}

export type AppMount = (shadow: ShadowRoot, hooks: WidgetHooks) => MountedWidget;

/** Until the app is wanted: a painted launcher, and whether a chat exists to resume. */
export interface Facade {
  /** Paint the launcher; `intent` when the visitor reaches for it, `click` when they click. */
  paint(shadow: ShadowRoot, intent: () => void, click: () => void): PaintedLauncher;
  /** A chat of this tab exists (a page of the site opened after another): load at once. */
  chatExists(): boolean;
  /** The visitor asked for a chat before the app is there: start it meanwhile (head-start.ts). */
  begin?(jwt: string | undefined): void;
  /** The unread messages of the chat this tab holds (its badge while the app loads). */
  unread?(): number;
  /** Load the app without intent when this calls back (data-preload="idle": idle.ts). */
  preload?(load: () => void): void;
}

export interface ElementOptions {
  /** The app: at once, or a promise of it (null: it could not be loaded; a later call retries). */
  app: () => AppMount | Promise<AppMount | null>;
  /** Forget the remembered chat at once, before the app (forget()). */
  forget?: () => void;
  /** Without a facade the app is mounted as soon as the element joins the page. */
  facade?: Facade;
}

export const ELEMENT_NAME = "chat-widget";

/** Define the element once; later calls (a second copy of the script) are ignored. */
export function defineWidgetElement(
  options: ElementOptions,
  name = ELEMENT_NAME,
): CustomElementConstructor {
  const existing = customElements.get(name);
  if (existing) return existing;
  class ChatWidgetElement extends HTMLElement implements ChatWidgetApi {
    static observedAttributes = ["jwt"];
    #mounted: MountedWidget | null = null;
    #painted: PaintedLauncher | null = null;
    #loading = false;
    /** Once the app was wanted, it is mounted whenever the element is on the page. */
    #wanted = false;
    #api: ChatWidgetApi | null = null;
    /** Calls made before the app is ready: run once it is. */
    #pending: ((api: ChatWidgetApi) => void)[] = [];
    readonly #emit = dispatchOn(this);
    readonly #ref = (api: ChatWidgetApi | null) => {
      this.#api = api;
      if (!api) return;
      this.#takeOver();
      for (const call of this.#pending.splice(0)) call(api);
    };

    connectedCallback(): void {
      // Removed and added again (moved on the page), the element keeps its shadow root.
      const shadow = this.shadowRoot ?? this.attachShadow({ mode: "open" });
      const facade = options.facade;
      if (this.#mounted || this.#wanted || !facade) this.#want();
      else if (!this.#painted) {
        this.#painted = facade.paint(
          shadow,
          () => this.#want(),
          () => this.open(),
        );
        if (facade.chatExists()) {
          // A chat of this tab (the visitor came from another page): the app at once, and
          // meanwhile the launcher as React shows it while the chat resumes.
          this.#painted.loading(true);
          this.#painted.unread(facade.unread?.() ?? 0);
          this.#want();
        } else facade.preload?.(() => this.#want());
      }
    }

    attributeChangedCallback(): void {
      this.#render();
    }

    /**
     * Off the page the app unmounts: the chat's subscriptions go, the chat stays stored.
     * Checked a microtask later, so a move (removed and added at once) keeps the chat as it is,
     * and never unmounts while a host's React tree is rendering.
     */
    disconnectedCallback(): void {
      queueMicrotask(() => {
        if (this.isConnected) return;
        this.#mounted?.unmount();
        this.#mounted = null;
      });
    }

    /** The `jwt` property mirrors the attribute, as the attribute does the prop. */
    get jwt(): string | undefined {
      return this.getAttribute("jwt") ?? undefined;
    }

    set jwt(value: string | null | undefined) {
      if (value == null) this.removeAttribute("jwt");
      else this.setAttribute("jwt", value);
    }

    open(): void {
      const facade = options.facade;
      if (!this.#api && this.isConnected && facade && !facade.chatExists()) {
        this.#painted?.loading(true);
        facade.begin?.(this.jwt);
      }
      this.#call((api) => api.open(), true);
    }

    minimise(): void {
      this.#call((api) => api.minimise());
    }

    end(): void {
      this.#call((api) => api.end());
    }

    forget(): void {
      // The remembered chat goes at once, even before the app is there.
      options.forget?.();
      this.#call((api) => api.forget());
    }

    get unreadCount(): number {
      return this.#api?.unreadCount ?? 0;
    }

    /**
     * Run a call on the app, or hold it until the app is there. Only open() wants the app:
     * before it, no chat of this tab exists (one would have loaded it), so the others have
     * nothing to do.
     */
    #call(call: (api: ChatWidgetApi) => void, wants = false): void {
      if (this.#api) call(this.#api);
      else if (this.isConnected && (wants || this.#wanted)) {
        this.#pending.push(call);
        this.#want();
      }
    }

    #want(): void {
      this.#wanted = true;
      if (this.#mounted || this.#loading || !this.isConnected) return;
      const app = options.app();
      if (typeof app === "function") {
        this.#mount(app);
        return;
      }
      this.#loading = true;
      void app.then((loaded) => {
        this.#loading = false;
        if (!loaded) {
          // Not loaded (offline, blocked): the launcher stays, a later intent tries again.
          this.#wanted = false;
          this.#painted?.loading(false);
          // The visitor (or the host page) asked for the chat: the error notice says it failed.
          if (this.#pending.length > 0) this.#painted?.failed();
          this.#pending.length = 0;
          return;
        }
        if (this.isConnected) this.#mount(loaded);
      });
    }

    #mount(app: AppMount): void {
      this.#mounted = app(this.shadowRoot!, { ref: this.#ref, emit: this.#emit });
      this.#render();
    }

    /**
     * React's launcher replaces the painted one, without the appear animation a second time.
     * Mid-press, or with keyboard focus, the painted button stays as it is (React's hidden
     * beneath it) until its click, or until focus leaves it: the click lands, and a screen
     * reader meets no new button. React showing no launcher (the window, the error notice)
     * ends the wait.
     */
    #takeOver(): void {
      const painted = this.#painted;
      const shadow = this.shadowRoot!;
      if (!painted) return;
      const launcher = [...shadow.querySelectorAll<HTMLElement>("button.launcher")].find(
        (button) => !painted.owns(button),
      );
      if (launcher && painted.held()) {
        launcher.style.visibility = "hidden";
        // React's loading indicator is the one from now on.
        painted.loading(false);
        let waiting = true;
        const retry = () => {
          if (!waiting) return;
          waiting = false;
          gone.disconnect();
          this.#takeOver();
        };
        const gone = new MutationObserver(() => {
          if (!launcher.isConnected) retry();
        });
        gone.observe(shadow, { childList: true, subtree: true });
        painted.released(retry);
        return;
      }
      this.#painted = null;
      launcher?.style.removeProperty("visibility");
      launcher?.classList.remove("appear");
      painted.remove();
    }

    #render(): void {
      this.#mounted?.render(this.getAttribute("jwt") ?? undefined);
    }
  }
  customElements.define(name, ChatWidgetElement);
  return ChatWidgetElement;
}
