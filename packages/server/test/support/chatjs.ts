/** amazon-connect-chatjs under Node: its UMD bundle, with the browser globals it reads. */
import WebSocket from "ws";

let loaded: unknown;

/** The bundle's `connect` (it installs itself on the global object), loaded once. */
export async function loadChatjs<T>(): Promise<T> {
  if (loaded) return loaded as T;
  const g = globalThis as Record<string, unknown> & { navigator?: { onLine?: boolean } };
  g.window ??= g;
  g.self ??= g;
  g.WebSocket ??= WebSocket;
  g.navigator ??= { userAgent: "node" } as never;
  // Node 21+ has a global navigator without onLine: chatjs would think it is offline.
  if (g.navigator!.onLine === undefined)
    Object.defineProperty(g.navigator, "onLine", { value: true, configurable: true });
  g.document ??= {
    addEventListener() {},
    removeEventListener() {},
    visibilityState: "visible",
    hidden: false,
  };
  g.addEventListener ??= () => {};
  await import("amazon-connect-chatjs" as string);
  loaded = g.connect;
  return loaded as T;
}
