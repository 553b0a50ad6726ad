/**
 * Everything the client takes from its host, injectable per instance so tests drive time,
 * randomness, sockets and HTTP exactly (engine.io-client's installTimerFunctions idea).
 * The defaults read the globals at call time, so `vi.useFakeTimers()` also reaches them.
 */

export type TimerHandle = unknown;

export interface WebSocketLike {
  readonly readyState: number;
  readonly url: string;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string; wasClean?: boolean }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ClientEnv {
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  setInterval(fn: () => void, ms: number): TimerHandle;
  clearInterval(handle: TimerHandle): void;
  /** Wall-clock milliseconds since the epoch. */
  now(): number;
  /** A number in [0, 1). */
  random(): number;
  WebSocket: WebSocketConstructor;
  fetch: FetchLike;
  /** Whether the host reports a network (navigator.onLine where there is one). */
  isOnline(): boolean;
  /** A random UUID v4 (ClientTokens). */
  uuid(): string;
  /** The browser's user agent (navigator.userAgent); mobile ones get docs/protocol.md §3.9's handling. */
  userAgent(): string;
  /** Whether the page is hidden (document.visibilityState). */
  isHidden(): boolean;
  /** Call `listener` on every visibilitychange of the document; returns the remover. */
  onVisibilityChange(listener: () => void): () => void;
  /** Call `listener` each time the window regains focus; returns the remover. */
  onFocus(listener: () => void): () => void;
}

/** Minimal logger contract: an object with debug, info, warn and error functions (docs/product.md §5). */
export interface Logger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export const noopLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};

function fallbackUuid(random: () => number): string {
  const hex = [...Array<undefined>(32)].map(() => Math.floor(random() * 16).toString(16));
  hex[12] = "4";
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** The host's real timers, clock, sockets and fetch, read lazily. */
export function defaultEnv(): ClientEnv {
  return {
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
    setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
    clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
    now: () => Date.now(),
    random: () => Math.random(),
    get WebSocket() {
      return globalThis.WebSocket as unknown as WebSocketConstructor;
    },
    fetch: (input, init) => globalThis.fetch(input, init),
    isOnline: () => globalThis.navigator?.onLine !== false,
    uuid: () =>
      typeof globalThis.crypto?.randomUUID === "function"
        ? globalThis.crypto.randomUUID()
        : fallbackUuid(Math.random),
    userAgent: () => globalThis.navigator?.userAgent ?? "",
    isHidden: () => globalThis.document?.visibilityState === "hidden",
    onVisibilityChange(listener) {
      const doc = globalThis.document;
      doc?.addEventListener("visibilitychange", listener);
      return () => doc?.removeEventListener("visibilitychange", listener);
    },
    onFocus(listener) {
      const target = globalThis.window ?? undefined;
      target?.addEventListener("focus", listener);
      return () => target?.removeEventListener("focus", listener);
    },
  };
}

/** Fill in any part of the environment a caller did not supply. */
export function resolveEnv(partial?: Partial<ClientEnv>): ClientEnv {
  const env = defaultEnv();
  for (const [key, value] of Object.entries(partial ?? {})) {
    if (value !== undefined) Object.defineProperty(env, key, { value, enumerable: true });
  }
  return env;
}
