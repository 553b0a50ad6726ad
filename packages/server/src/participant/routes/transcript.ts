import {
  ParticipantPath,
  type GetTranscriptRequest,
  type GetTranscriptResponse,
  type StartPosition,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import {
  findItemSeq,
  findSeqByRecency,
  findSeqByTime,
  readPage,
  type PageRequest,
} from "../../contact-centre/items-repo.js";
import type { Db } from "../../store/db.js";
import { Errors } from "../../errors.js";
import { authHook, callerOf } from "../auth.js";
import type { ParticipantContext } from "../context.js";
import { decodeNextToken, encodeNextToken, type ScanDirection } from "../next-token.js";
import { transcriptBody } from "../schemas.js";

/** An ISO 8601 date-time with a four-digit year, as AbsoluteTime values are written. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
/** Years 0001–9999: every such time is a valid timestamp in the store. */
const EARLIEST_MS = Date.parse("0001-01-01T00:00:00Z");
const LATEST_MS = Date.parse("9999-12-31T23:59:59.999Z");

/** The service's default page size (chatjs asks for 15). */
const DEFAULT_MAX_RESULTS = 10;

/** chatjs always sends `StartPosition`, `{}` when none was given: empty means not provided. */
function givenStart(start: StartPosition | undefined): StartPosition | null {
  if (!start) return null;
  const given = [start.Id, start.AbsoluteTime, start.MostRecent].filter((v) => v !== undefined);
  if (given.length === 0) return null;
  if (given.length > 1) {
    throw Errors.validation("StartPosition takes only one of Id, AbsoluteTime and MostRecent.");
  }
  return start;
}

/** Where a scan from StartPosition begins; null = nothing to return. */
async function startSeq(
  db: Db,
  contactId: string,
  start: StartPosition,
  direction: ScanDirection,
): Promise<number | null> {
  if (start.Id !== undefined) {
    const seq = await findItemSeq(db, contactId, start.Id);
    if (seq === null)
      throw Errors.validation(`StartPosition.Id ${start.Id} is not in this transcript.`);
    return seq;
  }
  if (start.AbsoluteTime !== undefined) {
    const ms = ISO_TIME.test(start.AbsoluteTime) ? Date.parse(start.AbsoluteTime) : NaN;
    if (!(ms >= EARLIEST_MS && ms <= LATEST_MS)) {
      throw Errors.validation("StartPosition.AbsoluteTime must be an ISO 8601 time.");
    }
    return findSeqByTime(db, contactId, new Date(ms).toISOString(), direction);
  }
  return findSeqByRecency(db, contactId, start.MostRecent ?? 0);
}

/** GetTranscript with paging in both scan directions and both sort orders (protocol §1.6). */
export function registerTranscript(app: FastifyInstance, ctx: ParticipantContext): void {
  app.post<{ Body: GetTranscriptRequest }>(
    ParticipantPath.GetTranscript,
    { preValidation: authHook(ctx, "connection"), schema: { body: transcriptBody } },
    async (request): Promise<GetTranscriptResponse> => {
      const { contact } = callerOf(request);
      const body = request.body;
      if (
        body.ContactId !== undefined &&
        body.ContactId !== contact.contactId &&
        body.ContactId !== contact.initialContactId
      ) {
        throw Errors.accessDenied("The participant may read only its own contact's transcript.");
      }
      const contactId = contact.contactId;
      const maxResults = body.MaxResults ?? DEFAULT_MAX_RESULTS;
      const db = ctx.deps.db;
      let page: PageRequest;
      if (body.NextToken !== undefined) {
        const position = decodeNextToken(body.NextToken, contactId);
        page = {
          contactId,
          direction: position.direction,
          from: { seq: position.seq, inclusive: false },
          limit: maxResults + 1,
        };
      } else {
        const start = givenStart(body.StartPosition);
        const direction = body.ScanDirection ?? (start ? "FORWARD" : "BACKWARD");
        page = { contactId, direction, limit: maxResults + 1 };
        if (start) {
          const seq = await startSeq(db, contactId, start, direction);
          if (seq === null) return { InitialContactId: contact.initialContactId, Transcript: [] };
          page.from = { seq, inclusive: true };
        }
      }
      const rows = await readPage(db, page);
      const more = rows.length > maxResults;
      const taken = rows.slice(0, maxResults);
      const last = taken.at(-1);
      const ascending = (body.SortOrder ?? "DESCENDING") === "ASCENDING";
      taken.sort((a, b) => (ascending ? a.seq - b.seq : b.seq - a.seq));
      return {
        InitialContactId: contact.initialContactId,
        Transcript: taken.map((r) => r.item),
        ...(more && last
          ? { NextToken: encodeNextToken({ contactId, seq: last.seq, direction: page.direction }) }
          : {}),
      };
    },
  );
}
