/**
 * Refusals by kind, counted per process for /metrics (issue 57): how often the server's security
 * rules turned a request away, so an operator sees an attack, or a rule set too tight, as it
 * happens. Each rule adds its kind here.
 */
import type { Family } from "../telemetry/prometheus.js";

export const REFUSAL_KINDS = {
  /** A start-chat continuing a chat it could not prove the visitor's (one 403 whatever the cause). */
  continuation_unproved: "continuing a chat without proof that it is the visitor's",
  /** A proved continuation of a chat still going, too old, or continued already (400). */
  continuation_invalid: "continuing a chat that is still going, too old or continued already",
  /** A websocket frame (not a ping) beyond its socket's budget, dropped unanswered. */
  websocket_frame_throttled: "a websocket frame beyond its socket's budget",
  /** An attachment whose name does not fit its type, or hides characters (attachment-names.ts). */
  attachment_name_refused: "an attachment name that does not fit its type or hides characters",
  /** An attachment upload beyond its URL's, chat's, address's or the process's slots (503). */
  upload_busy: "an upload beyond its share of the upload slots",
  /** A telemetry batch past its chat's daily quota (429, telemetry/quota.ts). */
  telemetry_quota: "a telemetry batch past its chat's daily quota",
  /** A websocket closed because its client stopped reading (socket-writes.ts). */
  websocket_stalled: "a websocket whose client stopped reading",
} as const;

export type RefusalKind = keyof typeof REFUSAL_KINDS;

export const REFUSALS_FAMILY = "chat_widget_refusals_total";

export class Refusals {
  private readonly counts = new Map<RefusalKind, number>(
    Object.keys(REFUSAL_KINDS).map((kind) => [kind as RefusalKind, 0]),
  );

  count(kind: RefusalKind): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  /** Every kind, zero included, so a dashboard sees the series before the first refusal. */
  family(): Family {
    return {
      name: REFUSALS_FAMILY,
      help: "Requests this process refused under a security rule, by kind.",
      type: "counter",
      samples: [...this.counts].map(([kind, value]) => ({
        name: REFUSALS_FAMILY,
        labels: [["kind", kind]],
        value,
      })),
    };
  }
}
