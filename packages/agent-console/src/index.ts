/** The agent console's parts, for embedding it elsewhere or testing it; `main.tsx` is the app's entry. */
export { App } from "./components/App.js";
export type { AppProps } from "./components/App.js";
export { createAgentApi } from "./api/agent-api.js";
export type { AgentApi, AgentApiOptions, Fetch } from "./api/agent-api.js";
export { AgentApiError, errorText } from "./api/errors.js";
export { ConsoleChats, TYPING_INDICATOR_MS } from "./chat/console-chats.js";
export type { ConsoleChatsOptions, SessionFactory } from "./chat/console-chats.js";
export { ChatsStore } from "./state/chats-store.js";
export type { ConsoleSnapshot } from "./state/chats-store.js";
export type { ChatInfo, ChatState, ReceiptMark, Transfer } from "./state/chat-state.js";
