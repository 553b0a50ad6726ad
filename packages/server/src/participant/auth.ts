import { BEARER_HEADER, Limits } from "@chat-widget/protocol";
import type { FastifyRequest, preValidationHookHandler } from "fastify";
import { isoAt } from "../clock.js";
import { findCallerByToken } from "../contact-centre/participants-repo.js";
import type { ParticipantRecord } from "../contact-centre/rows.js";
import { hashToken } from "../contact-centre/tokens.js";
import type { Contact } from "../contact-centre/types.js";
import { Errors } from "../errors.js";
import type { ParticipantContext } from "./context.js";

export interface Caller {
  participant: ParticipantRecord;
  contact: Contact;
}

export type TokenKind = "participant" | "connection";

export interface AuthOptions {
  /** Let a participant who left (or whose chat ended) through; the route decides. */
  allowLeft?: boolean;
}

/** The `X-Amz-Bearer` token: 403 when missing, 400 when too long. */
export function bearer(request: FastifyRequest): string {
  const value = request.headers[BEARER_HEADER];
  const token = Array.isArray(value) ? value[0] : value;
  if (!token) throw Errors.accessDenied("Missing X-Amz-Bearer token.");
  if (token.length > Limits.TOKEN_MAX) {
    throw Errors.validation(`X-Amz-Bearer must be at most ${Limits.TOKEN_MAX} characters.`);
  }
  return token;
}

/**
 * The caller behind `X-Amz-Bearer`: the ParticipantToken for CreateParticipantConnection,
 * a ConnectionToken for every other operation. A token reaches its own contact only.
 * The Authorization/X-Amz-* signing headers chatjs adds are ignored. Each call takes
 * one token from the participant's rate-limit bucket. A caller this process keeps (CallerCache),
 * counted in this process's limit store, is answered at once, without a promise: every
 * SendMessage of a connected chat.
 */
export function authenticate(
  ctx: ParticipantContext,
  request: FastifyRequest,
  kind: TokenKind,
  options: AuthOptions = {},
): Caller | Promise<Caller> {
  const hash = hashToken(bearer(request));
  const kept = ctx.callers.get(kind, hash, ctx.clock.now());
  if (kept) return admit(ctx, kept, options);
  return readCaller(ctx, kind, hash).then((found) => admit(ctx, found, options));
}

function admit(
  ctx: ParticipantContext,
  found: Caller | null,
  options: AuthOptions,
): Caller | Promise<Caller> {
  if (!found) throw Errors.accessDenied("The token is not valid or has expired.");
  const { participant, contact } = found;
  if (!options.allowLeft && (participant.leftAt || contact.status !== "active")) {
    throw Errors.accessDenied("The participant has left or the chat has ended.");
  }
  const caller: Caller = { participant, contact };
  const taking = ctx.limiter.take(participant.participantId);
  return taking ? taking.then(() => caller) : caller;
}

/** The caller of a token from the store; a connection token's is cached (CallerCache). */
async function readCaller(
  ctx: ParticipantContext,
  kind: TokenKind,
  hash: string,
): Promise<Caller | null> {
  const now = ctx.clock.now();
  const found = await findCallerByToken(
    ctx.deps.db,
    kind === "participant" ? null : "connection_tokens",
    hash,
    isoAt(now),
  );
  if (!found) return null;
  const caller = { participant: found.participant, contact: found.contact };
  if (found.tokenExpiresAt) {
    ctx.callers.set("connection", hash, caller, Date.parse(found.tokenExpiresAt), now);
  }
  return caller;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the participant service's authentication hook. */
    participantCaller: Caller | null;
  }
}

/**
 * A preValidation hook authenticating the caller before the body is validated, so a wrong
 * token is AccessDeniedException whatever the body.
 */
export function authHook(
  ctx: ParticipantContext,
  kind: TokenKind,
  options: AuthOptions = {},
): preValidationHookHandler {
  return (request, _reply, done) => {
    let caller: Caller | Promise<Caller>;
    try {
      caller = authenticate(ctx, request, kind, options);
    } catch (error) {
      return done(error as Error);
    }
    if (!(caller instanceof Promise)) {
      request.participantCaller = caller;
      return done();
    }
    caller.then((found) => {
      request.participantCaller = found;
      done();
    }, done);
  };
}

/** The caller authenticated by `authHook`. */
export function callerOf(request: FastifyRequest): Caller {
  const caller = request.participantCaller;
  if (!caller) throw Errors.accessDenied();
  return caller;
}
