/**
 * The History view's list (issue 60), its one owner: the filters last asked for, the pages
 * read so far, and whether there are more. A new search replaces the list; a failure says why
 * and keeps what was shown.
 */
import type {
  HistoryAdvisorsResponse,
  HistoryConversation,
  HistoryQuery,
  HistoryResponse,
} from "@chat-widget/protocol";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../api/errors.js";
import type { VisitorReads } from "../components/visitor-reads.js";

export interface HistoryReads extends Pick<VisitorReads, "transcript"> {
  list(query: HistoryQuery): Promise<HistoryResponse>;
  advisors(): Promise<HistoryAdvisorsResponse>;
}

export interface HistoryList {
  conversations: HistoryConversation[];
  loading: boolean;
  error: string | null;
  more: boolean;
  search(query: HistoryQuery): void;
  loadMore(): void;
}

export function useHistory(reads: HistoryReads): HistoryList {
  const [conversations, setConversations] = useState<HistoryConversation[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [next, setNext] = useState<string | undefined>(undefined);
  const query = useRef<HistoryQuery>({});
  // Only the newest request's answer is kept.
  const asked = useRef(0);

  const read = useCallback(
    (q: HistoryQuery, before: string | undefined) => {
      const ask = ++asked.current;
      setLoading(true);
      reads.list(before ? { ...q, Before: before } : q).then(
        (page) => {
          if (ask !== asked.current) return;
          setConversations((shown) =>
            before ? [...shown, ...page.Conversations] : page.Conversations,
          );
          setNext(page.Next);
          setError(null);
          setLoading(false);
        },
        (e: unknown) => {
          if (ask !== asked.current) return;
          setError(`The conversations could not be loaded: ${errorText(e)}`);
          setLoading(false);
        },
      );
    },
    [reads],
  );
  useEffect(() => read(query.current, undefined), [read]);

  return {
    conversations,
    loading,
    error,
    more: next !== undefined,
    search: (q) => {
      query.current = q;
      read(q, undefined);
    },
    loadMore: () => {
      if (next !== undefined) read(query.current, next);
    },
  };
}
