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
import { withReceipts } from "../../contact-centre/receipts.js";
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

/**
 * chatjs always sends `StartPosition`, `{}` when none was given: empty means not provided. The
 * SDK model does not forbid giving several members: each given must be well-formed, and the scan
 * starts at Id, else AbsoluteTime, else MostRecent (docs/wire-decisions.md).
 */
function givenStart(start: StartPosition | undefined): StartPosition | null {
  if (!start) return null;
  const given = [start.Id, start.AbsoluteTime, start.MostRecent].filter((v) => v !== undefined);
  if (given.length === 0) return null;
  if (start.AbsoluteTime !== undefined) absoluteTime(start.AbsoluteTime);
  return start;
}

/** StartPosition.AbsoluteTime as an ISO string the store can compare. */
function absoluteTime(value: string): string {
  const ms = ISO_TIME.test(value) ? Date.parse(value) : NaN;
  if (!(ms >= EARLIEST_MS && ms <= LATEST_MS)) {
    throw Errors.validation("StartPosition.AbsoluteTime must be an ISO 8601 time.");
  }
  return new Date(ms).toISOString();
}

/**
 * Where a scan from StartPosition begins; null = nothing to return. An Id that is not in this
 * contact's transcript selects nothing, as an AbsoluteTime after the last item does: the model
 * calls StartPosition a filter and lists no not-found error for GetTranscript.
 */
async function startSeq(
  db: Db,
  contactId: string,
  start: StartPosition,
  direction: ScanDirection,
): Promise<number | null> {
  if (start.Id !== undefined) return findItemSeq(db, contactId, start.Id);
  if (start.AbsoluteTime !== undefined) {
    return findSeqByTime(db, contactId, absoluteTime(start.AbsoluteTime), direction);
  }
  return findSeqByRecency(db, contactId, start.MostRecent ?? 0);
}

/** A page position just before `seq` in the scan, so that the next page starts with it. */
const justBefore = (seq: number, direction: ScanDirection): number =>
  direction === "FORWARD" ? seq - 1 : seq + 1;

/** GetTranscript with paging in both scan directions and both sort orders (docs/protocol.md §1.6). */
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
      if (maxResults === 0) {
        // The model's minimum: no items, and a NextToken continuing from this very place while
        // the scan has items left (docs/wire-decisions.md).
        const first = rows[0];
        return {
          InitialContactId: contact.initialContactId,
          Transcript: [],
          ...(first
            ? {
                NextToken: encodeNextToken({
                  contactId,
                  seq: justBefore(first.seq, page.direction),
                  direction: page.direction,
                }),
              }
            : {}),
        };
      }
      const more = rows.length > maxResults;
      const taken = rows.slice(0, maxResults);
      const last = taken.at(-1);
      const ascending = (body.SortOrder ?? "DESCENDING") === "ASCENDING";
      taken.sort((a, b) => (ascending ? a.seq - b.seq : b.seq - a.seq));
      return {
        InitialContactId: contact.initialContactId,
        Transcript: await withReceipts(
          db,
          contactId,
          taken.map((r) => r.item),
        ),
        ...(more && last
          ? { NextToken: encodeNextToken({ contactId, seq: last.seq, direction: page.direction }) }
          : {}),
      };
    },
  );
}
