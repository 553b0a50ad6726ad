/**
 * Entry of the script-tag build (`dist/script/chat-client.js`, a classic script): what
 * `amazon-connect-chatjs` users call, on the global `connect` as chatjs leaves it —
 * `connect.ChatSession`, `connect.LogLevel`, `connect.SessionTypes` — added to a `connect`
 * the page already has (Amazon Connect Streams defines one) rather than replacing it.
 */
import { connect } from "./namespace.js";

const host = globalThis as { connect?: Record<string, unknown> };
host.connect = Object.assign(host.connect ?? {}, connect);
