/**
 * The visitor jwt (spec docs/decisions.md #3, issue 10), verified with `jose` against the configured key:
 * an HS256 secret (WIDGET_JWT_SECRET), an RS256/ES256 public key in PEM
 * (WIDGET_JWT_PUBLIC_KEY) or a JWKS URL (WIDGET_JWT_JWKS_URL). Only the algorithms of that key
 * are allowed (never `none`); `exp` and `nbf` are honoured. A token that is not a signed jwt is
 * a 400; one whose signature, algorithm, key or time is wrong is a 403.
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { Errors } from "../errors.js";

export interface VisitorJwtKeyConfig {
  widgetJwtSecret: string | undefined;
  widgetJwtPublicKey: string | undefined;
  widgetJwtJwksUrl: string | undefined;
}

export interface VisitorJwtVerifier {
  /** The algorithms a token may be signed with. */
  readonly algorithms: readonly string[];
  /** The verified payload; throws a ServiceError (400 or 403) otherwise. */
  verify(token: string, nowMs: number): Promise<Record<string, unknown>>;
}

/** Public-key algorithms by key type. */
const PUBLIC_KEY_ALGORITHMS: Record<string, string> = { rsa: "RS256", ec: "ES256" };

/** Builds the verifier; throws at start-up when the configuration cannot work. */
export function visitorJwtVerifier(config: VisitorJwtKeyConfig): VisitorJwtVerifier {
  const given = [config.widgetJwtSecret, config.widgetJwtPublicKey, config.widgetJwtJwksUrl];
  if (given.filter((v) => v !== undefined).length !== 1) {
    throw new Error(
      "Set exactly one of WIDGET_JWT_SECRET, WIDGET_JWT_PUBLIC_KEY and WIDGET_JWT_JWKS_URL",
    );
  }
  if (config.widgetJwtSecret !== undefined)
    return verifier(new TextEncoder().encode(config.widgetJwtSecret), ["HS256"]);
  if (config.widgetJwtPublicKey !== undefined) {
    let key: KeyObject;
    try {
      key = createPublicKey(config.widgetJwtPublicKey.replace(/\\n/g, "\n"));
    } catch {
      throw new Error("WIDGET_JWT_PUBLIC_KEY is not a PEM public key");
    }
    const algorithm = PUBLIC_KEY_ALGORITHMS[key.asymmetricKeyType ?? ""];
    if (!algorithm) throw new Error("WIDGET_JWT_PUBLIC_KEY must be an RSA or EC (P-256) key");
    return verifier(key, [algorithm]);
  }
  let url: URL;
  try {
    url = new URL(config.widgetJwtJwksUrl!);
  } catch {
    throw new Error("WIDGET_JWT_JWKS_URL is not a URL");
  }
  return verifier(createRemoteJWKSet(url), ["RS256", "ES256"]);
}

function verifier(
  key: Uint8Array | KeyObject | JWTVerifyGetKey,
  algorithms: string[],
): VisitorJwtVerifier {
  return {
    algorithms,
    async verify(token, nowMs) {
      try {
        const options = { algorithms, currentDate: new Date(nowMs) };
        // Two calls only because jose types a key and a key getter as separate overloads.
        const { payload } =
          typeof key === "function"
            ? await jwtVerify(token, key, options)
            : await jwtVerify(token, key, options);
        return payload;
      } catch (error) {
        throw refusal(error, algorithms);
      }
    },
  };
}

/** A clear error for each way a token fails. */
function refusal(error: unknown, algorithms: readonly string[]): Error {
  if (error instanceof errors.JWTExpired) return Errors.accessDenied("The jwt has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    return Errors.accessDenied(
      error.claim === "nbf" ? "The jwt is not valid yet" : `The jwt's ${error.claim} is not valid`,
    );
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return Errors.accessDenied("The jwt's signature is not valid");
  if (error instanceof errors.JOSEAlgNotAllowed)
    return Errors.accessDenied(`The jwt must be signed with ${algorithms.join(" or ")}`);
  if (error instanceof errors.JWKSNoMatchingKey)
    return Errors.accessDenied("No key of the JWKS matches the jwt");
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return Errors.internal("The JWKS could not be read");
  if (error instanceof errors.JOSEError)
    return Errors.validation("The jwt is not a valid signed jwt");
  return error instanceof Error ? error : new Error(String(error));
}
