/** The widget service and gateway calls (docs/product.md §7.1–7.3, docs/decisions.md #2). */
import {
  BEARER_HEADER,
  GatewayPath,
  SNIPPET_ID_HEADER,
  WIDGET_SUPPORTED_MESSAGING_CONTENT_TYPES,
} from "@chat-widget/protocol";
import type {
  DiscussedOrderNumberRequest,
  StartChatRequest,
  StartChatResult,
} from "@chat-widget/protocol";
import { joinUrl } from "./settings.js";
import type { WidgetSettings } from "./settings.js";
import { Text } from "./texts.js";

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** An earlier chat to continue, with the secret that proves it the visitor's (issue 57). */
export interface LastChat {
  contactId: string;
  continuationToken: string;
}

export interface Gateway {
  /** GET verify with the snippet id; success is the response's ok flag. */
  verify(): Promise<boolean>;
  /**
   * POST start-chat; reads data.startChatResult. With `continueFrom`, a persistent chat that
   * continues that ended contact; one the contact centre refuses (403: not this visitor's, or
   * unknown; 400: still going, too old, continued already) starts afresh, with no error.
   */
  startChat(jwt: string | undefined, continueFrom?: LastChat): Promise<StartChatResult>;
  /** Forget the chat remembered to continue (persistent-chat.ts); the host's `forget()`. */
  forget?(): void;
  /**
   * POST discussed-order-number for the chat just started, proved the visitor's own by its
   * ParticipantToken (X-Amz-Bearer); only the ok flag is read.
   */
  reportOrderNumber(chat: StartChatResult, attributes: Record<string, string>): Promise<boolean>;
  /**
   * POST `body` with the instance id to a gateway path, about the chat, proved the visitor's own
   * by its ParticipantToken (X-Amz-Bearer); true when it was taken. The page reports of
   * chat-views.js use it (issue 60).
   */
  report(path: string, chat: StartChatResult, body: object): Promise<boolean>;
}

function isStartChatResult(value: unknown): value is StartChatResult {
  const v = value as Partial<StartChatResult> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.ContactId === "string" &&
    typeof v.ParticipantId === "string" &&
    typeof v.ParticipantToken === "string"
  );
}

const JSON_HEADERS = { "Content-Type": "application/json" };

export function createGateway(settings: WidgetSettings, fetch: FetchLike): Gateway {
  return {
    async verify() {
      const response = await fetch(joinUrl(settings.widgetServiceUrl, GatewayPath.Verify), {
        method: "GET",
        headers: { [SNIPPET_ID_HEADER]: settings.snippetId },
      });
      return response.ok;
    },
    async startChat(jwt, continueFrom) {
      const request: StartChatRequest = {
        ParticipantDetails: { DisplayName: Text.CUSTOMER },
        ContactFlowId: settings.contactFlowId,
        InstanceId: settings.instanceId,
        SupportedMessagingContentTypes: [...WIDGET_SUPPORTED_MESSAGING_CONTENT_TYPES],
        ...(typeof jwt === "string" && jwt !== "" ? { Jwt: jwt } : {}),
        ...(continueFrom
          ? {
              PersistentChat: {
                RehydrationType: "FROM_SEGMENT",
                SourceContactId: continueFrom.contactId,
                ContinuationToken: continueFrom.continuationToken,
              },
            }
          : {}),
      };
      const response = await fetch(joinUrl(settings.gatewayUrl, GatewayPath.StartChat), {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(request),
      });
      if (continueFrom && (response.status === 400 || response.status === 403))
        return this.startChat(jwt);
      if (!response.ok) throw new Error(`start-chat failed with status ${response.status}`);
      const body = (await response.json()) as { data?: { startChatResult?: unknown } };
      const result = body.data?.startChatResult;
      if (!isStartChatResult(result)) throw new Error("start-chat returned no startChatResult");
      return result;
    },
    reportOrderNumber(chat, attributes) {
      return this.report(GatewayPath.DiscussedOrderNumber, chat, {
        InitialContactId: chat.ContactId,
        Attributes: attributes,
      } satisfies Omit<DiscussedOrderNumberRequest, "InstanceId">);
    },
    async report(path, chat, body) {
      const response = await fetch(joinUrl(settings.gatewayUrl, path), {
        method: "POST",
        headers: { ...JSON_HEADERS, [BEARER_HEADER]: chat.ParticipantToken },
        body: JSON.stringify({ InstanceId: settings.instanceId, ...body }),
      });
      return response.ok;
    },
  };
}
