/**
 * A chat's transcript read back from the newest (issue 61): the page the console shows when the
 * chat opens, then, as the advisor scrolls to the top of it, the page before the oldest shown,
 * one read at a time (asked again while it loads, the same read).
 */
import type { ChatSession } from "@chat-widget/chat-client";
import type { Item } from "@chat-widget/protocol";

/** Items a page holds (the most the participant service returns). */
export const TRANSCRIPT_PAGE = 100;

const readPage = (session: ChatSession, nextToken?: string) =>
  session.getTranscript({
    maxResults: TRANSCRIPT_PAGE,
    scanDirection: "BACKWARD",
    sortOrder: "ASCENDING",
    ...(nextToken ? { nextToken } : {}),
  });

export class TranscriptPages {
  /** The token of the page before the oldest read; undefined once the oldest is in. */
  private token: string | undefined;
  private loading: Promise<void> | null = null;

  /** `older` takes each older page's items, and whether there are older ones still. */
  constructor(
    private readonly session: ChatSession,
    private readonly older: (items: Item[], more: boolean) => void,
  ) {}

  /** The newest page (oldest first); whether older ones remain goes to `older`. */
  async newest(): Promise<Item[]> {
    const page = await readPage(this.session);
    this.token = page.data.NextToken ?? undefined;
    this.older([], !!this.token);
    return page.data.Transcript ?? [];
  }

  /** The page before the oldest read, once (a failure leaves it to be asked for again). */
  loadOlder(): Promise<void> {
    const token = this.token;
    if (!token) return Promise.resolve();
    this.loading ??= readPage(this.session, token)
      .then((page) => {
        this.token = page.data.NextToken ?? undefined;
        this.older(page.data.Transcript ?? [], !!this.token);
      })
      .finally(() => (this.loading = null));
    return this.loading;
  }
}
