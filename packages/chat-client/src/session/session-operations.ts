/**
 * The session's operations (docs/product.md §3): each one checks for an active connection, validates
 * its arguments and sends one request with the connection token.
 */
import { ContentType } from "@chat-widget/protocol";
import type { OperationResult } from "../api/participant-client.js";
import {
  assertIsNonEmptyString,
  assertKnownContentType,
  assertNotNull,
  isObject,
} from "../core/validation.js";
import { whenActive } from "./active-connection.js";
import { downloadAttachment, uploadAttachment } from "./attachments.js";
import type { ConnectionDetailsProvider } from "./connection-details.js";
import type { Delivery } from "./delivery.js";
import type { Outbox } from "./outbox.js";
import {
  MISSING_MESSAGE_ID,
  type MessageReceipts,
  type ReceiptContentType,
  type ReceiptRequest,
} from "./receipts.js";
import {
  attachMetadata,
  parseEventContent,
  transcriptRequest,
  validateSendMessage,
  type ChatResult,
  type DescribeViewArgs,
  type DownloadAttachmentArgs,
  type GetTranscriptArgs,
  type SendAttachmentArgs,
  type SendEventArgs,
  type SendMessageArgs,
  type SendMessageReceiptArgs,
} from "./requests.js";
import type { ControllerDeps, TrackTranscript } from "./session-context.js";
import type { SessionState } from "./session-state.js";

const isReceiptType = (t: string): t is ReceiptContentType =>
  t === ContentType.READ_RECEIPT || t === ContentType.DELIVERED_RECEIPT;

export class SessionOperations {
  readonly #deps: ControllerDeps;
  readonly #state: SessionState;
  readonly #provider: ConnectionDetailsProvider;
  readonly #receipts: MessageReceipts;
  readonly #delivery: Delivery;
  readonly #outbox: Outbox<OperationResult<"SendMessage">>;
  readonly #onDisconnected: () => void;
  readonly #track: TrackTranscript;
  constructor(
    deps: ControllerDeps,
    state: SessionState,
    provider: ConnectionDetailsProvider,
    receipts: MessageReceipts,
    delivery: Delivery,
    outbox: Outbox<OperationResult<"SendMessage">>,
    /** Tears the session down after a successful disconnectParticipant. */
    onDisconnected: () => void,
    track: TrackTranscript,
  ) {
    this.#deps = deps;
    this.#state = state;
    this.#provider = provider;
    this.#receipts = receipts;
    this.#delivery = delivery;
    this.#outbox = outbox;
    this.#onDisconnected = onDisconnected;
    this.#track = track;
  }

  sendMessage(args: SendMessageArgs): Promise<ChatResult<OperationResult<"SendMessage">>> {
    return this.#ifActive("sendMessage", () => {
      validateSendMessage(args);
      const { message, contentType } = args;
      // The idempotency token is also the message's Id in the transcript until it is stored.
      const clientToken = args.clientToken ?? this.#deps.env.uuid();
      this.#track((t) => t.sending(clientToken, message, contentType));
      // Stored once, in the order written; it reaches onMessage from the server's stream. The
      // outbox reads the connection token at each attempt, so #call's token is not used.
      return this.#call(args.metadata, () =>
        this.#outbox.add({ clientToken, content: message, contentType }),
      ).then(
        (result) => {
          this.#track((t) => t.sent(clientToken, result.data));
          return result;
        },
        (error: unknown) => {
          const now = new Date(this.#deps.env.now()).toISOString();
          this.#track((t) => t.failed(clientToken, now));
          throw error;
        },
      );
    });
  }

  sendEvent(args: SendEventArgs): Promise<ChatResult<unknown> | { message: string }> {
    return this.#ifActive("sendEvent", () => {
      assertNotNull(args, "args");
      assertKnownContentType(args.contentType);
      if (isReceiptType(args.contentType)) {
        const content = parseEventContent(args.content);
        return this.sendMessageReceipt({
          contentType: args.contentType,
          // As chatjs: the id as its string form; the service refuses one it does not know.
          // eslint-disable-next-line @typescript-eslint/no-base-to-string
          messageId: String(content?.messageId ?? ""),
          disableThrottle: content?.disableThrottle === true,
          metadata: args.metadata,
        });
      }
      if (this.#state.hasChatEnded) return Promise.resolve({ message: "Chat has ended" });
      const content = isObject(args.content) ? JSON.stringify(args.content) : args.content;
      return this.#call(args.metadata, (token) =>
        this.#deps.client.sendEvent(token, args.contentType, content),
      );
    });
  }

  sendMessageReceipt(
    args: SendMessageReceiptArgs,
  ): Promise<ChatResult<unknown> | { message: string }> {
    return this.#ifActive("sendMessageReceipt", () => {
      if (!this.#deps.config.messageReceipts)
        return Promise.reject(new Error("Message receipts are disabled"));
      if (!args?.messageId) {
        this.#deps.logger.warn(MISSING_MESSAGE_ID);
        return Promise.reject(new Error(MISSING_MESSAGE_ID));
      }
      if (this.#state.hasChatEnded) return Promise.resolve({ message: "Chat has ended" });
      return this.#receipts
        .submit(args)
        .then((result) =>
          attachMetadata(result as ChatResult<unknown> | { message: string }, args.metadata),
        );
    });
  }

  sendAttachment(args: SendAttachmentArgs) {
    return this.#ifActive("sendAttachment", () => {
      assertNotNull(args?.attachment, "attachment");
      return this.#call(args.metadata, (token) =>
        uploadAttachment(this.#deps.client, this.#deps.env.fetch, token, args.attachment),
      );
    });
  }

  downloadAttachment(args: DownloadAttachmentArgs): Promise<Blob> {
    return this.#ifActive("downloadAttachment", () => {
      assertIsNonEmptyString(args?.attachmentId, "attachmentId");
      return this.#call(args.metadata, (token) =>
        downloadAttachment(this.#deps.client, this.#deps.env.fetch, token, args.attachmentId),
      ).then((result) => result.data);
    });
  }

  getTranscript(
    args: GetTranscriptArgs = {},
  ): Promise<ChatResult<OperationResult<"GetTranscript">>> {
    return this.#ifActive("getTranscript", () => {
      const request = transcriptRequest(args);
      return this.#call(args.metadata, async (token) => {
        const response = await this.#deps.client.getTranscript(token, request);
        this.#receipts.seed(response.Transcript ?? []);
        this.#delivery.markKnown(response.Transcript ?? []);
        const backward = request.ScanDirection === "BACKWARD";
        const own = this.#deps.chatDetails.participantId;
        this.#track((t) => t.page(response, backward, own));
        return response;
      });
    });
  }

  describeView(args: DescribeViewArgs) {
    return this.#ifActive("describeView", () => {
      assertIsNonEmptyString(args?.viewToken, "viewToken");
      return this.#call(args.metadata, (token) =>
        this.#deps.client.describeView(token, args.viewToken),
      );
    });
  }

  disconnectParticipant(): Promise<ChatResult<OperationResult<"DisconnectParticipant">>> {
    return this.#ifActive("disconnectParticipant", () =>
      this.#call(undefined, (token) => this.#deps.client.disconnectParticipant(token)).then(
        (result) => {
          this.#onDisconnected();
          return result;
        },
      ),
    );
  }

  /** Sends one read or delivered receipt (the sender of the session's MessageReceipts). */
  sendReceipt(receipt: ReceiptRequest): Promise<ChatResult<unknown>> {
    return this.#call(undefined, (token) =>
      this.#deps.client.sendEvent(
        token,
        receipt.contentType,
        JSON.stringify({
          messageId: receipt.messageId,
          ...(receipt.disableThrottle ? { disableThrottle: true } : {}),
        }),
      ),
    );
  }

  /** Run a request with the connection token; `{ data, metadata }` on success, the error plus metadata on failure. */
  async #call<T>(metadata: unknown, run: (token: string) => Promise<T>): Promise<ChatResult<T>> {
    try {
      return {
        data: await run(this.#provider.getConnectionToken() ?? ""),
        metadata: metadata ?? null,
      };
    } catch (error) {
      throw attachMetadata(error, metadata ?? null);
    }
  }

  #ifActive<T>(method: string, run: () => Promise<T>): Promise<T> {
    return whenActive(this.#state, method, this.#deps.logger, run);
  }
}
