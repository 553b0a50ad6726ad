/** Read the whole recent transcript: most recent pages first, returned oldest first. */
import type { Item } from "@chat-widget/protocol";
import type { ChatConnection } from "../chat/adapter.js";
import { TRANSCRIPT_MAX_PAGES, TRANSCRIPT_PAGE_SIZE } from "./constants.js";

export async function fetchTranscript(connection: ChatConnection): Promise<Item[]> {
  const items: Item[] = [];
  let nextToken: string | undefined;
  for (let page = 0; page < TRANSCRIPT_MAX_PAGES; page++) {
    const result = await connection.getTranscript({
      maxResults: TRANSCRIPT_PAGE_SIZE,
      scanDirection: "BACKWARD",
      sortOrder: "ASCENDING",
      ...(nextToken ? { nextToken } : {}),
    });
    items.unshift(...result.Transcript);
    nextToken = result.NextToken;
    if (!nextToken) break;
  }
  return items;
}
