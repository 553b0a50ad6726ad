/** What the visitor panel reads from the agent API, bound to the advisor's sign-in (Console). */
import type {
  ConversationTranscriptResponse,
  EarlierConversationsResponse,
  VisitorResponse,
} from "@chat-widget/protocol";

export interface VisitorReads {
  visitor(contactId: string): Promise<VisitorResponse>;
  earlier(contactId: string): Promise<EarlierConversationsResponse>;
  transcript(contactId: string, after?: number): Promise<ConversationTranscriptResponse>;
}

/** The most transcript pages a read-only conversation loads (10,000 items). */
export const MAX_TRANSCRIPT_PAGES = 20;

/** A conversation's whole transcript, page after page (up to MAX_TRANSCRIPT_PAGES). */
export async function wholeTranscript(reads: Pick<VisitorReads, "transcript">, contactId: string) {
  const items: ConversationTranscriptResponse["Items"] = [];
  let after: number | undefined;
  for (let page = 0; page < MAX_TRANSCRIPT_PAGES; page++) {
    const next = await reads.transcript(contactId, after);
    items.push(...next.Items);
    if (next.NextAfter === undefined) return { items, complete: true };
    after = next.NextAfter;
  }
  return { items, complete: false };
}

export const conversationDate = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(iso),
  );
