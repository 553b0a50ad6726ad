/** Steps the continuation tests share (issue 57): start-chat, PersistentChat, an ended chat. */
import { ContentType, GatewayPath, type Item } from "@chat-widget/protocol";
import { expect } from "vitest";
import { call, connectParticipant } from "../support/client.js";
import type { TestServer } from "../support/server.js";
import { http, startChatBody } from "./helpers.js";

/** A production-mode server's visitor jwt secret, for tests that sign their own jwts. */
export const PRODUCTION_JWT_SECRET = "a-production-visitor-jwt-secret-of-48-characters!";

export interface Started {
  ContactId: string;
  ParticipantToken: string;
  ContinuationToken?: string;
  ContinuedFromContactId?: string;
}

/** PersistentChat continuing `source`, with the secret given (if any). */
export const continuing = (
  source: string,
  ContinuationToken?: string,
  RehydrationType = "FROM_SEGMENT",
) => ({
  PersistentChat: {
    RehydrationType,
    SourceContactId: source,
    ...(ContinuationToken === undefined ? {} : { ContinuationToken }),
  },
});

export function continuationSteps(server: () => TestServer) {
  const start = (extra: Record<string, unknown> = {}) =>
    http<{ data: { startChatResult: Started }; message?: string }>(
      server().url + GatewayPath.StartChat,
      { headers: { origin: server().url }, body: startChatBody(extra) },
    );

  /** A chat started with `extra` in which the customer said `words`, then ended. */
  async function endedChat(extra: Record<string, unknown>, words: string): Promise<Started> {
    const started = await start(extra);
    expect(started.status).toBe(200);
    const result = started.body.data.startChatResult;
    const { connectionToken } = await connectParticipant(server().url, result.ParticipantToken);
    const said = await call(server().url, "/participant/message", connectionToken, {
      ContentType: ContentType.TEXT_PLAIN,
      Content: words,
    });
    expect(said.status).toBe(200);
    await server().built.deps.centre.endContact(result.ContactId);
    return result;
  }

  /** What the customer said in the chat of `participantToken`, history included. */
  async function customerWords(participantToken: string): Promise<string[]> {
    const { connectionToken } = await connectParticipant(server().url, participantToken);
    const r = await call<{ Transcript: Item[] }>(
      server().url,
      "/participant/transcript",
      connectionToken,
      { MaxResults: 100, ScanDirection: "FORWARD", SortOrder: "ASCENDING", StartPosition: {} },
    );
    expect(r.status).toBe(200);
    return r.body.Transcript.filter((i) => i.ParticipantRole === "CUSTOMER").map(
      (i) => i.Content ?? "",
    );
  }

  return { start, endedChat, customerWords };
}
