/**
 * Who may write telemetry (issue 10; docs/product.md §7, docs/protocol.md §8.4). `/auth` exchanges the auth
 * params for a jwtToken, and every batch carries it in `authParams.jwtToken`:
 *
 * - `/auth` takes `authParams.participantToken`, the customer's ParticipantToken of a chat (the
 *   widget has it from start-chat) that is active or ended within the hour: only a visitor with
 *   a chat gets a telemetry token, and the token names that chat's contact. Anything else is
 *   403, nothing issued.
 * - A batch without a jwtToken is 403, nothing stored. One whose token is not valid (expired,
 *   or signed before a key change) is answered `unsetToken: true`, nothing stored: the worker
 *   drops the token and authenticates again (docs/protocol.md §8.4).
 * - Limits, in the contact centre's limit store (shared over Redis when REDIS_URL is set):
 *   `/auth` per client address, batches per contact. Over either: 429 with Retry-After.
 */
import { Limits } from "@chat-widget/protocol";
import type { Clock } from "../clock.js";
import { isoAt } from "../clock.js";
import { findCallerByToken } from "../contact-centre/participants-repo.js";
import { hashToken } from "../contact-centre/tokens.js";
import type { Db } from "../store/db.js";
import { Errors } from "../errors.js";
import { JwtError, signJwt, verifyJwt } from "../gateway/jwt.js";
import { addressKey } from "../http/client-address.js";
import { retryAfterSeconds, type BucketLimit, type LimitStore } from "../limits/limit-store.js";

/** Lifetime of a telemetry jwt. */
export const TELEMETRY_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * `/auth` per client address: a burst of 20, then one every 3 s. A page authenticates once per
 * chat (again each hour, or after a restart changed the key); 20 leaves room for a household or
 * office behind one address.
 */
export const TELEMETRY_AUTH_LIMIT: BucketLimit = { burst: 20, intervalMs: 3_000 };
/**
 * Batches per contact: a burst of 30, then one a second. The worker sends workflow events at
 * most every 2 s and metrics every 30 s (or per 30 metrics), once per browser however many tabs
 * share its worker; a second a batch is twice the busiest honest page.
 */
export const TELEMETRY_BATCH_LIMIT: BucketLimit = { burst: 30, intervalMs: 1_000 };

export const TELEMETRY_AUTH_TABLE = "telemetry-auth-address";
export const TELEMETRY_BATCH_TABLE = "telemetry-batch-contact";

const SCOPE = "telemetry";

export interface TelemetryGateOptions {
  db: Db;
  /** The key telemetry tokens are signed with (the server's token secret). */
  secret: string;
  clock: Clock;
  limits: LimitStore;
}

export class TelemetryGate {
  constructor(private readonly o: TelemetryGateOptions) {}

  /** A jwtToken for the chat whose ParticipantToken is `authParams.participantToken`. */
  async issue(authParams: Record<string, unknown>, address: string): Promise<string> {
    await this.take(TELEMETRY_AUTH_TABLE, addressKey(address), TELEMETRY_AUTH_LIMIT);
    const token = authParams.participantToken;
    if (typeof token !== "string" || token === "" || token.length > Limits.TOKEN_MAX) {
      throw Errors.accessDenied(
        "Telemetry /auth needs authParams.participantToken: the ParticipantToken of a chat.",
      );
    }
    const now = this.o.clock.now();
    const caller = await findCallerByToken(this.o.db, null, hashToken(token), isoAt(now));
    if (!caller || caller.participant.role !== "CUSTOMER") {
      throw Errors.accessDenied("The participant token is not a visitor's.");
    }
    // A page still sends its last batch after its chat ended; a chat long over gets nothing.
    const { endedAt } = caller.contact;
    if (endedAt !== null && now - Date.parse(endedAt) > TELEMETRY_TOKEN_TTL_MS) {
      throw Errors.accessDenied("The chat of this participant token ended over an hour ago.");
    }
    return signJwt(
      {
        scope: SCOPE,
        sub: caller.contact.contactId,
        iat: Math.floor(now / 1000),
        exp: Math.floor((now + TELEMETRY_TOKEN_TTL_MS) / 1000),
      },
      this.o.secret,
    );
  }

  /**
   * The chat whose batch carrying `jwtToken` may be stored, or null when the token is not
   * valid (the caller answers `unsetToken`). Throws 403 without a token, 429 over the limit.
   */
  async admit(jwtToken: unknown, path: string): Promise<string | null> {
    if (typeof jwtToken !== "string" || jwtToken === "") {
      throw Errors.accessDenied(`${path} needs authParams.jwtToken from /auth.`);
    }
    const contactId = this.contactOf(jwtToken);
    if (contactId === null) return null;
    await this.take(TELEMETRY_BATCH_TABLE, contactId, TELEMETRY_BATCH_LIMIT);
    return contactId;
  }

  private contactOf(jwtToken: string): string | null {
    try {
      const payload = verifyJwt(jwtToken, this.o.secret, this.o.clock.now());
      return payload.scope === SCOPE && typeof payload.sub === "string" ? payload.sub : null;
    } catch (error) {
      if (error instanceof JwtError) return null;
      throw error;
    }
  }

  private async take(table: string, key: string, limit: BucketLimit): Promise<void> {
    const waitMs = await this.o.limits.take([{ table, key, limit }], this.o.clock.now());
    if (waitMs > 0) {
      const seconds = retryAfterSeconds(waitMs);
      throw Errors.throttling(`Too many telemetry requests. Try again in ${seconds} s.`, seconds);
    }
  }
}
