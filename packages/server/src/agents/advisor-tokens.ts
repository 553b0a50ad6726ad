/**
 * The advisor's participant token of an accepted contact. The console needs it again after a
 * reload, yet no token is stored in plain text: it is an HMAC of the participant id under a
 * secret kept in the store (the same for every process on it, stable across restarts), so it
 * is recomputed on demand; the participants table holds only its hash, like every token.
 */
import { sign } from "../contact-centre/tokens.js";
import type { Db } from "../store/db.js";
import { loadOrCreateSecret } from "../store/secrets.js";

export const ADVISOR_TOKEN_SECRET = "advisor-participant-token";

export class AdvisorTokens {
  private secret: Promise<string> | null = null;

  constructor(private readonly db: Db) {}

  /** The participant token of the advisor's participant `participantId`. */
  async tokenFor(participantId: string): Promise<string> {
    this.secret ??= loadOrCreateSecret(this.db, ADVISOR_TOKEN_SECRET).catch((error: unknown) => {
      this.secret = null;
      throw error;
    });
    return sign(await this.secret, `participant-token:${participantId}`);
  }
}
