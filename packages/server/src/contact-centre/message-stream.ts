/**
 * A message a SYSTEM participant (the flow's bot or assistant) writes as it goes: each
 * `append` goes to the contact's sockets at once as a chunk of one Id, and `complete` commits the
 * whole text under that Id (docs/protocol.md §3.4.1). Chunks are never stored: a client that
 * missed some (a reconnect) shows the completed message, which replaces what it had.
 */
import { randomUUID } from "node:crypto";
import type { Item } from "@chat-widget/protocol";
import { Errors } from "../errors.js";
import type { ContactCentre } from "./types.js";

export interface MessageStreamOptions {
  contentType: string;
  /** The message's Id (default: a new one); the flow makes it of the step, so a step performed again streams under the same Id. */
  id?: string;
  /** The name it is shown under (the flow's `BOT`). */
  displayName?: string;
  /** The time of the first chunk (default: now). */
  now?: () => Date;
}

export class MessageStream {
  readonly id: string;
  #text = "";
  #chunks = 0;
  #startedAt: string | null = null;
  #completed: Promise<Item> | null = null;
  /** The last piece sent (or failed): the next one and the completion wait for it. */
  #tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly centre: ContactCentre,
    private readonly contactId: string,
    private readonly participantId: string,
    private readonly options: MessageStreamOptions,
  ) {
    this.id = options.id ?? randomUUID();
  }

  /** The text streamed so far. */
  get text(): string {
    return this.#text;
  }

  /**
   * Send the next piece; rejects (as typing does) once the chat or the participant is gone.
   * Pieces go out in the order appended, even when the caller does not wait for each.
   */
  append(piece: string): Promise<void> {
    if (this.#completed) return Promise.reject(new Error("The message is complete."));
    if (piece === "") return this.#tail;
    this.#startedAt ??= (this.options.now?.() ?? new Date()).toISOString();
    this.#text += piece;
    const chunk = {
      messageId: this.id,
      chunkNumber: ++this.#chunks,
      contentType: this.options.contentType,
      content: piece,
      startedAt: this.#startedAt,
      displayName: this.options.displayName,
    };
    const sent = this.#tail.then(() =>
      this.centre.postChunk(this.contactId, this.participantId, chunk),
    );
    // The next piece waits for this one, whether it went out or not.
    this.#tail = sent.then(
      () => undefined,
      () => undefined,
    );
    return sent.then(() => undefined);
  }

  /**
   * Commit the whole text under the stream's Id (once: a second call gets the same item; after
   * a failure, a call tries again, and with a `clientToken` commits it once).
   */
  complete(clientToken?: string): Promise<Item> {
    if (this.#text === "") {
      return Promise.reject(Errors.validation("A streamed message needs some text."));
    }
    this.#completed ??= this.#tail
      .then(() =>
        this.centre.postMessage(this.contactId, this.participantId, {
          contentType: this.options.contentType,
          content: this.#text,
          displayName: this.options.displayName,
          clientToken,
          completes: this.id,
        }),
      )
      .catch((error: unknown) => {
        // Not committed: a later call may try again.
        this.#completed = null;
        throw error;
      });
    return this.#completed;
  }
}
