/**
 * The participant's connection asked for while chat-app.js downloads (issue 61): once a chat
 * begun before the app has started, its CreateParticipantConnection goes out at once, as the
 * chat client would send it; when the client then sends that very request, it gets this
 * answer instead of a second round trip. Any other request, or one that differs in the least,
 * goes to the network as before. A chat begun that nobody takes (the page changed its jwt, or
 * logged the visitor out) is ended with that connection, not left open for a visitor who is gone.
 */
import { BEARER_HEADER, ParticipantPath } from "@chat-widget/protocol";
import type { CreateParticipantConnectionResponse } from "@chat-widget/protocol";
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
  /**
   * Nobody will take this participant's chat: disconnect them with the connection asked for
   * (nothing when none was, or it failed). Resolves once the centre answered.
   */
  end(participantToken: string): Promise<void>;
}

/** The request's header, whatever form its headers take. */
const header = (init: RequestInit | undefined, name: string) =>
  new Headers(init?.headers).get(name);

export function earlyConnection(endpoint: string, fetch: FetchLike): EarlyConnection {
  const url = joinUrl(endpoint, ParticipantPath.CreateParticipantConnection);
  const post = (path: string, token: string, body: string) =>
    fetch(joinUrl(endpoint, path), {
      method: "POST",
      headers: { "Content-Type": "application/json", [BEARER_HEADER]: token },
      body,
    });
  /** The answers asked for, by participant token: each taken once, or ended. */
  const early = new Map<string, Promise<Response>>();
  return {
    begin(participantToken) {
      const answer = post(
        ParticipantPath.CreateParticipantConnection,
        participantToken,
        CONNECTION_BODY,
      );
      // Never an unhandled rejection while it waits: a failure is asked again by the client.
      answer.catch(() => {});
      early.set(participantToken, answer);
    },
    wrap: (next) => (input, init) => {
      const token = input === url ? header(init, BEARER_HEADER) : null;
      const answer = token !== null ? early.get(token) : undefined;
      if (answer && init?.method === "POST" && init.body === CONNECTION_BODY) {
        early.delete(token!);
        return answer.catch(() => next(input, init));
      }
      return next(input, init);
    },
    async end(participantToken) {
      const taken = early.get(participantToken);
      if (!taken) return;
      early.delete(participantToken);
      try {
        const answer = await taken;
        const body = (await answer.json()) as CreateParticipantConnectionResponse;
        const token = body.ConnectionCredentials?.ConnectionToken;
        if (token) await post(ParticipantPath.DisconnectParticipant, token, "{}");
      } catch {
        // Not connected, or the centre cannot be reached: the chat ends when it times out.
      }
    },
  };
}
