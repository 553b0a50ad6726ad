/**
 * A file sent or downloaded in a chat, with its progress in the chat's transfers: one after
 * another per chat, so each reports its own progress, and only once the chat's connect has
 * settled (a file chosen while it connects waits; if connecting fails, it is shown as not sent).
 */
import type { ProgressFetch } from "@chat-widget/chat-client";
import { errorText } from "../api/errors.js";
import type { ChatInfo } from "../state/chat-state.js";
import type { ChatsStore } from "../state/chats-store.js";

/** What a chat's transfers need of it. */
export interface TransferHandle {
  info: ChatInfo;
  progress: ProgressFetch;
  /** The chat's transfers so far, one after another (the first waits for connect). */
  transfers: Promise<unknown>;
  /** Why connecting failed ("Could not connect to the chat: …"); the session is disposed then. */
  connectFailure: string | null;
}

let transferCount = 0;

/** Run `run` as the chat's next transfer, its progress and outcome shown in the chat. */
export function transferFile(
  store: ChatsStore,
  handle: TransferHandle,
  name: string,
  direction: "upload" | "download",
  run: () => Promise<void>,
): Promise<void> {
  const contactId = handle.info.ContactId;
  const transfer = {
    id: `t${++transferCount}`,
    name,
    direction,
    loaded: 0,
    total: 0,
    done: false,
  };
  store.setTransfer(contactId, transfer);
  const what = direction === "upload" ? `${name} was not sent` : `${name} was not downloaded`;
  const work = handle.transfers.then(async () => {
    if (handle.connectFailure) {
      store.setTransfer(contactId, { ...transfer, done: true });
      store.setChatError(contactId, `${what}: ${handle.connectFailure}`);
      return;
    }
    handle.progress.listener = (loaded, total) =>
      store.setTransfer(contactId, { ...transfer, loaded, total });
    try {
      await run();
      store.setTransfer(contactId, { ...transfer, loaded: 1, total: 1, done: true });
    } catch (error) {
      store.setTransfer(contactId, { ...transfer, done: true });
      store.setChatError(contactId, `${what}: ${errorText(error)}`);
    } finally {
      handle.progress.listener = null;
    }
  });
  handle.transfers = work;
  return work;
}
