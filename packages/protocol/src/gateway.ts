/** The widget service and gateway of the local contact centre (docs/product.md §7, docs/decisions.md #1–3). */

export const GatewayPath = {
  Verify: "/widget-service/verify",
  StartChat: "/gateway/start-chat",
  DiscussedOrderNumber: "/gateway/discussed-order-number",
} as const;

export const SNIPPET_ID_HEADER = "Snippet-Id";

export interface VerifyResponse {
  ok: boolean;
}

export interface StartChatRequest {
  ParticipantDetails: { DisplayName: string };
  ContactFlowId: string;
  InstanceId: string;
  /** Optional, as in StartChatContact: text/plain is always supported. */
  SupportedMessagingContentTypes?: string[];
  /** Optional: the visitor's jwt, so the server can verify it and attach its attributes. */
  Jwt?: string;
  /** As StartChatContact: stored as the customer's first message. */
  InitialMessage?: { ContentType: string; Content: string };
  /** As StartChatContact: kept only for keys on the server's allow-list; the jwt's win. */
  Attributes?: Record<string, string>;
  /** As StartChatContact: 60 minutes to 7 days (default 25 hours); the chat ends when it runs out. */
  ChatDurationInMinutes?: number;
  /**
   * As StartChatContact: continue an ended chat, whose past conversation the new one starts with
   * (`FROM_SEGMENT`: that contact; `ENTIRE_PAST_SESSION`: a session's first contact, continuing its
   * latest).
   */
  PersistentChat?: {
    RehydrationType?: "ENTIRE_PAST_SESSION" | "FROM_SEGMENT";
    SourceContactId?: string;
    /**
     * Ours: the proof that the earlier chat is this visitor's when it was started without a
     * visitor jwt (its StartChatResult's ContinuationToken). A chat started with a jwt is
     * continued only with a jwt of the same subject (`sub`). Any refusal is one 403.
     */
    ContinuationToken?: string;
  };
}

export interface StartChatResult {
  ContactId: string;
  ParticipantId: string;
  ParticipantToken: string;
  /**
   * Ours: the secret that proves a later start-chat this visitor's, to continue this chat
   * (PersistentChat.ContinuationToken). Keep it beside the ContactId; never put it in a URL.
   */
  ContinuationToken?: string;
  /** A persistent chat: the past contact it continues. */
  ContinuedFromContactId?: string;
}

/** What the chat interface may offer (amazon-connect-chat-interface reads `ATTACHMENTS`). */
export interface FeaturePermissions {
  ATTACHMENTS: boolean;
}

export interface StartChatResponse {
  data: { startChatResult: StartChatResult; featurePermissions?: FeaturePermissions };
}

export interface DiscussedOrderNumberRequest {
  InstanceId: string;
  InitialContactId: string;
  Attributes: Record<string, string>;
}

/** The demo ids of the local contact centre (used as widget defaults). */
export const DemoIds = {
  SNIPPET_ID: "demo-snippet",
  INSTANCE_ID: "demo-instance",
  CONTACT_FLOW_ID: "default-flow",
} as const;
