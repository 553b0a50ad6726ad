/**
 * The participant's connection asked for while chat-app.js downloads (issue 61): once a chat
 * begun before the app has started, its CreateParticipantConnection goes out at once, as the
 * chat client would send it; when the client then sends that very request, it gets this
 * answer instead of a second round trip. Any other request, or one that differs in the least,
 * goes to the network as before.
 */
import { BEARER_HEADER, ParticipantPath } from "@chat-widget/protocol";
import type { FetchLike } from "@chat-widget/chat-client";
import { joinUrl } from "../settings.js";

/** What a customer's client sends to connect (connection-details.ts in the chat client). */
export const CONNECTION_BODY = JSON.stringify({ Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"] });

export interface EarlyConnection {
  /** Ask for this participant's connection now (its chat has just started). */
  begin(participantToken: string): void;
  /**
   * A chat session's fetch: the client's own request for that connection gets the answer
   * asked for early, once; every other request goes to `fetch`.
   */
  wrap(fetch: FetchLike): FetchLike;
}

/** The request's header, whatever form its headers take. */
const header = (init: RequestInit | undefined, name: string) =>
  new Headers(init?.headers).get(name);

export function earlyConnection(endpoint: string, fetch: FetchLike): EarlyConnection {
  const url = joinUrl(endpoint, ParticipantPath.CreateParticipantConnection);
  let early: { token: string; answer: Promise<Response> } | null = null;
  return {
    begin(participantToken) {
      const answer = fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", [BEARER_HEADER]: participantToken },
        body: CONNECTION_BODY,
      });
      // Never an unhandled rejection while it waits: a failure is asked again by the client.
      answer.catch(() => {});
      early = { token: participantToken, answer };
    },
    wrap: (next) => (input, init) => {
      const taken = early;
      if (
        taken &&
        input === url &&
        init?.method === "POST" &&
        init.body === CONNECTION_BODY &&
        header(init, BEARER_HEADER) === taken.token
      ) {
        early = null;
        return taken.answer.catch(() => next(input, init));
      }
      return next(input, init);
    },
  };
}
