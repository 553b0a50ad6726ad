/**
 * The visitor panel of the agent console (issue 60): who the visitor of a chat is, from what
 * the chat carries. `GET /agent-api/contacts/:contactId/visitor` with the advisor's bearer
 * token: the advisor holding a live chat, or any signed-in advisor once it has ended (the
 * team's history); anyone else gets 404, a missing or unknown token 403.
 */
import type { AttributeSource } from "./agent-api.js";

export const VisitorApiPath = {
  /** GET; `:contactId` replaced by the contact id (agentContactPath). */
  Visitor: "/agent-api/contacts/:contactId/visitor",
} as const;

/** The contact attribute holding the visitor's e-mail address (the jwt's, verified, or the page's). */
export const EMAIL_ATTRIBUTE = "email";

export interface VisitorResponse {
  ContactId: string;
  /** The name the advisor knows the visitor by (the `customerName` attribute, else their display name). */
  Name: string;
  /** The `email` attribute, when the chat carries one. */
  Email?: string;
  Attributes: Record<string, string>;
  /** Each attribute's source (only "jwt" is verified). */
  AttributeSources: Record<string, AttributeSource>;
  /** When the chat started (ISO). */
  StartedAt: string;
  /** Named from the User-Agent the visitor's browser sent when the chat started, e.g. "Chrome 131". */
  Browser?: string;
  /** e.g. "Windows 10", "iOS 18.1", "Android 14". */
  OperatingSystem?: string;
  /** The first language the browser asked for (Accept-Language), a BCP 47 tag such as "fr-FR". */
  Language?: string;
}
