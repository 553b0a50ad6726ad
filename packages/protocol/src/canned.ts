/**
 * Canned responses (issue 60): replies an advisor inserts from the composer by typing `/`.
 * Shared ones are the team's, managed through the admin API; personal ones are each advisor's
 * own, managed in the console. Placeholders such as `{{visitor.name}}`, `{{advisor.name}}` and
 * `{{attributes.orderNumber}}` are filled in by the console before the text is sent.
 *
 *   GET    /agent-api/canned             → { Canned } the shared ones and the advisor's own
 *   POST   /agent-api/canned             CannedInput → CannedResponse (personal)
 *   PUT    /agent-api/canned/:cannedId   CannedInput → CannedResponse (one's own only)
 *   DELETE /agent-api/canned/:cannedId   → {}
 *   GET/POST /admin-api/canned, PUT/DELETE /admin-api/canned/:cannedId: the shared ones (admin token)
 */
export const CannedApiPath = {
  List: "/agent-api/canned",
  One: "/agent-api/canned/:cannedId",
  AdminList: "/admin-api/canned",
  AdminOne: "/admin-api/canned/:cannedId",
} as const;

export const CannedLimits = {
  /** A shortcut: 1–32 lower-case letters, digits, `-` and `_` (what follows the `/`). */
  SHORTCUT_PATTERN: "^[a-z0-9_-]{1,32}$",
  TITLE_MAX: 80,
  /** As a message: a canned response is sent as one. */
  BODY_MAX: 1024,
  /** Personal ones an advisor may keep. */
  PERSONAL_MAX: 200,
  /** Shared ones a team may keep. */
  SHARED_MAX: 1000,
} as const;

export interface CannedInput {
  Shortcut: string;
  Title: string;
  Body: string;
}

export interface CannedResponse extends CannedInput {
  CannedId: string;
  /** The team's (managed by an admin) or the advisor's own. */
  Shared: boolean;
  UpdatedAt: string;
}

export interface CannedListResponse {
  /** Shared and the advisor's own, by shortcut. */
  Canned: CannedResponse[];
}

/** Fill `:cannedId` in a CannedApiPath. */
export const cannedPath = (path: string, cannedId: string): string =>
  path.replace(":cannedId", encodeURIComponent(cannedId));
