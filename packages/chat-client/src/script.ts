/**
 * Entry of the script-tag build (`dist/script/chat-client.js`, a classic script): what
 * `amazon-connect-chatjs` users call, on the global `connect` as chatjs leaves it —
 * `connect.ChatSession`, `connect.LogLevel`, `connect.SessionTypes` — added to a `connect`
 * the page already has (Amazon Connect Streams defines one) rather than replacing it.
 */
import { connect as namespace } from "./namespace.js";

declare global {
  /** What the script-tag build adds to the page's `connect`. */
  var connect: typeof namespace & Record<string, unknown>;
}

const host = globalThis as { connect?: unknown };
const existing = host.connect;
// Only an object is the page's own `connect`; an element with that id (DOM clobbering) is not.
const own = Object.prototype.toString.call(existing) === "[object Object]";
host.connect = Object.assign(own ? (existing as object) : {}, namespace);

export {};
