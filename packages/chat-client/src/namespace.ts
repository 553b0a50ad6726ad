/** A chatjs-style namespace: `connect.ChatSession`, `connect.LogLevel`, `connect.SessionTypes`. */
import { LogLevel } from "./core/logger.js";
import { SessionTypes } from "./session/chat-details.js";
import { ChatSession } from "./session/chat-session.js";

export const connect = { ChatSession, LogLevel, SessionTypes } as const;
