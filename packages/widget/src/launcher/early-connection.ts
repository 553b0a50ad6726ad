/**
 * The participant's connection asked for while chat-app.js downloads (issue 61): once a chat
 * begun before the app has started, its CreateParticipantConnection goes out at once, as the
 * chat client would send it; when the client then sends that very request, it gets this
 * answer instead of a second round trip. Any other request, or one that differs in the least,
 * goes to the network as before. Its websocket opens as soon as the answer names it, still
 * before the app, and the client's socket for that address is that one (early-socket.ts). A chat
 * begun that nobody takes (the page changed its jwt, or logged the visitor out) is ended with
 * that connection, its socket closed, not left open for a visitor who is gone.
 */
import { BEARER_HEADER, ParticipantPath } from "@chat-widget/protocol";
import type { CreateParticipantConnectionResponse } from "@chat-widget/protocol";
import type { FetchLike, WebSocketConstructor } from "@chat-widget/chat-client";
import { joinUrl } from "../settings.js";
import { holdSocket } from "./early-socket.js";
import type { EventSocket, HeldSocket } from "./early-socket.js";

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
  /** A chat session's sockets: the one opened early for an address, once; else `next`'s own. */
  wrapSocket(next: WebSocketConstructor): WebSocketConstructor;
  /**
   * Nobody will take this participant's chat: disconnect them with the connection asked for
   * (nothing when none was, or it failed). Resolves once the centre answered.
   */
  end(participantToken: string): Promise<void>;
}

/** The request's header, whatever form its headers take. */
const header = (init: RequestInit | undefined, name: string) =>
  new Headers(init?.headers).get(name);

export function earlyConnection(
  endpoint: string,
  fetch: FetchLike,
  openSocket: (url: string) => EventSocket = (url) => new WebSocket(url),
): EarlyConnection {
  const url = joinUrl(endpoint, ParticipantPath.CreateParticipantConnection);
  const post = (path: string, token: string, body: string) =>
    fetch(joinUrl(endpoint, path), {
      method: "POST",
      headers: { "Content-Type": "application/json", [BEARER_HEADER]: token },
      body,
    });
  /** The answers asked for, by participant token: each taken once, or ended. */
  const early = new Map<string, Promise<Response>>();
  /** The sockets opened early, by address, and each participant's address. */
  const sockets = new Map<string, HeldSocket>();
  const socketUrls = new Map<string, string>();
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
      answer
        .then((response) => response.clone().json())
        .then((body: CreateParticipantConnectionResponse) => {
          const url = body.Websocket?.Url;
          // Not when the client took the answer first: it opens its own.
          if (!url || early.get(participantToken) !== answer) return;
          sockets.set(url, holdSocket(openSocket(url)));
          socketUrls.set(participantToken, url);
        })
        .catch(() => {});
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
    wrapSocket: (next) =>
      function EarlyOrOwn(url: string) {
        const held = sockets.get(url);
        sockets.delete(url);
        return held?.take() ?? new next(url);
      } as unknown as WebSocketConstructor,
    async end(participantToken) {
      const url = socketUrls.get(participantToken);
      socketUrls.delete(participantToken);
      if (url) sockets.get(url)?.drop();
      if (url) sockets.delete(url);
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
