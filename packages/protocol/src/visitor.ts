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

/**
 * The widget's page report (issue 60, 1b): `POST /gateway/visitor-page` on the gateway, with
 * the chat's ParticipantToken in X-Amz-Bearer, from the page itself (its Origin is the page
 * URL's). Sent when a chat starts or resumes on a page and whenever the page changes. The
 * participant API stays exactly Amazon Connect's: this is the widget service's.
 */
export const VISITOR_PAGE_PATH = "/gateway/visitor-page";

export interface VisitorPageRequest {
  InstanceId: string;
  ContactId: string;
  /** The page's URL (http or https); the server keeps its query and fragment only where the operator allows. */
  Url: string;
  Title?: string;
  /** The visitor's IANA time zone, e.g. "Europe/Berlin" (Intl's resolvedOptions().timeZone). */
  TimeZone?: string;
}

/** Bounds of a page report's fields (characters). */
export const VisitorPageLimits = { URL_MAX: 2048, TITLE_MAX: 256, TIME_ZONE_MAX: 64 } as const;

/** The page the visitor is on, as last reported. */
export interface VisitorPage {
  Url: string;
  Title: string;
  /** When it was reported (ISO). */
  At: string;
}

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
  /** The visitor's IANA time zone, from the widget's page report: their local time. */
  TimeZone?: string;
  /** The page the visitor is on now, from the widget's page reports. */
  Page?: VisitorPage;
}

/** The events stream's `visitor`: the visitor of one of the advisor's chats moved (read it again). */
export interface VisitorChange {
  ContactId: string;
}
