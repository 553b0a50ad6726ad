/**
 * The agent API's typed client (routes under `/agent-api`, wire types from
 * @chat-widget/protocol). Every call but sign-in sends the advisor's bearer token; a failure
 * rejects with an AgentApiError carrying the server's message.
 */
import {
  AgentApiPath,
  agentContactPath,
  type AcceptResponse,
  type AdvisorAvailability,
  type ChatsResponse,
  type ConnectionTokenResponse,
  type MeResponse,
  type QueueResponse,
  type SignInResponse,
  type ConversationTranscriptResponse,
  type EarlierConversationsResponse,
  type HistoryAdvisorsResponse,
  type HistoryQuery,
  type HistoryResponse,
  HistoryApiPath,
  NotesApiPath,
  CannedApiPath,
  type CannedInput,
  type CannedListResponse,
  type CannedResponse,
  cannedPath,
  type Note,
  type NotesResponse,
  TransferApiPath,
  WrapUpApiPath,
  type TagSuggestionsResponse,
  type TagsResponse,
  type TransferRequest,
  type TransferResponse,
  type TransferTargetsResponse,
  type VisitorResponse,
  type WebSocketTransportResponse,
  VisitorApiPath,
} from "@chat-widget/protocol";
import { toAgentApiError } from "./errors.js";

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface AgentApiOptions {
  /** The contact centre's origin ("" = the page's own). */
  baseUrl?: string;
  fetch?: Fetch;
}

export interface AgentApi {
  readonly baseUrl: string;
  signIn(username: string, password: string): Promise<SignInResponse>;
  signOut(token: string): Promise<void>;
  me(token: string): Promise<MeResponse>;
  setAvailability(token: string, availability: AdvisorAvailability): Promise<MeResponse>;
  queue(token: string): Promise<QueueResponse>;
  chats(token: string): Promise<ChatsResponse>;
  accept(token: string, contactId: string): Promise<AcceptResponse>;
  connectionToken(token: string, contactId: string): Promise<ConnectionTokenResponse>;
  end(token: string, contactId: string): Promise<void>;
  /** The visitor panel's details of a chat the advisor holds, or of an ended one. */
  visitor(token: string, contactId: string): Promise<VisitorResponse>;
  /** The shared canned responses and the advisor's own. */
  canned(token: string): Promise<CannedListResponse>;
  /** A canned response of the advisor's own. */
  createCanned(token: string, input: CannedInput): Promise<CannedResponse>;
  /** Change one of the advisor's own (a shared one is refused). */
  updateCanned(token: string, cannedId: string, input: CannedInput): Promise<CannedResponse>;
  deleteCanned(token: string, cannedId: string): Promise<void>;
  /** Who can take a chat the advisor holds: available advisors with their load, and its queue. */
  transferTargets(token: string, contactId: string): Promise<TransferTargetsResponse>;
  /** Hand a chat the advisor holds to another advisor or back to its queue. */
  transfer(token: string, contactId: string, request: TransferRequest): Promise<TransferResponse>;
  /** A conversation's tags (the holder's live chat, or any ended one). */
  tags(token: string, contactId: string): Promise<TagsResponse>;
  setTags(token: string, contactId: string, tags: string[]): Promise<TagsResponse>;
  /** The team's tags beginning with `prefix`, the most used first. */
  tagSuggestions(token: string, prefix: string): Promise<TagSuggestionsResponse>;
  /** The wrap-up of a chat the advisor held last, once it has ended. */
  wrapUp(token: string, contactId: string, body: string): Promise<Note>;
  /** The chat's internal notes, oldest first. */
  notes(token: string, contactId: string): Promise<NotesResponse>;
  /** Write an internal note on a chat the advisor holds (a retry with the same token is one note). */
  addNote(token: string, contactId: string, body: string, clientToken: string): Promise<Note>;
  /** A page of the team's closed conversations, filtered. */
  history(token: string, query: HistoryQuery): Promise<HistoryResponse>;
  /** Every advisor who took part in a conversation. */
  historyAdvisors(token: string): Promise<HistoryAdvisorsResponse>;
  /** The earlier conversations of the chat's visitor (known by their verified jwt subject). */
  earlier(token: string, contactId: string): Promise<EarlierConversationsResponse>;
  /** A page of a conversation's transcript, oldest first, after the item `after` (a Seq). */
  transcript(
    token: string,
    contactId: string,
    after?: number,
  ): Promise<ConversationTranscriptResponse>;
  websocketTransport(token: string): Promise<WebSocketTransportResponse>;
  /** The events stream's URL (EventSource cannot send headers). */
  /** The live updates' URL (the token goes in the Authorization header, never here). */
  eventsUrl(): string;
  /** `GET /metrics` (Prometheus text). */
  /** /metrics, read with the advisor's token (a deployment may restrict it). */
  metricsText(token: string): Promise<string>;
}

export function createAgentApi(options: AgentApiOptions = {}): AgentApi {
  const baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
  const fetcher: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function request<T>(
    method: string,
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetcher(baseUrl + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw await toAgentApiError(response);
    const text = await response.text();
    return (text ? JSON.parse(text) : {}) as T;
  }
  const contact = (path: string, contactId: string) => agentContactPath(path, contactId);

  return {
    baseUrl,
    signIn: (Username, Password) =>
      request("POST", AgentApiPath.SignIn, null, { Username, Password }),
    signOut: async (token) => {
      await request("POST", AgentApiPath.SignOut, token);
    },
    me: (token) => request("GET", AgentApiPath.Me, token),
    setAvailability: (token, Availability) =>
      request("PUT", AgentApiPath.Availability, token, { Availability }),
    queue: (token) => request("GET", AgentApiPath.Queue, token),
    chats: (token) => request("GET", AgentApiPath.Chats, token),
    accept: (token, contactId) => request("POST", contact(AgentApiPath.Accept, contactId), token),
    connectionToken: (token, contactId) =>
      request("POST", contact(AgentApiPath.ConnectionToken, contactId), token),
    end: async (token, contactId) => {
      await request("POST", contact(AgentApiPath.End, contactId), token);
    },
    canned: (token) => request("GET", CannedApiPath.List, token),
    createCanned: (token, input) => request("POST", CannedApiPath.List, token, input),
    updateCanned: (token, cannedId, input) =>
      request("PUT", cannedPath(CannedApiPath.One, cannedId), token, input),
    deleteCanned: async (token, cannedId) => {
      await request("DELETE", cannedPath(CannedApiPath.One, cannedId), token);
    },
    transferTargets: (token, contactId) =>
      request("GET", contact(TransferApiPath.Targets, contactId), token),
    transfer: (token, contactId, body) =>
      request("POST", contact(TransferApiPath.Transfer, contactId), token, body),
    tags: (token, contactId) => request("GET", contact(WrapUpApiPath.Tags, contactId), token),
    setTags: (token, contactId, Tags) =>
      request("PUT", contact(WrapUpApiPath.Tags, contactId), token, { Tags }),
    tagSuggestions: (token, prefix) =>
      request(
        "GET",
        `${WrapUpApiPath.Suggestions}?${new URLSearchParams({ Prefix: prefix }).toString()}`,
        token,
      ),
    wrapUp: (token, contactId, Body) =>
      request("PUT", contact(WrapUpApiPath.WrapUp, contactId), token, { Body }),
    notes: (token, contactId) => request("GET", contact(NotesApiPath.Notes, contactId), token),
    addNote: (token, contactId, Body, ClientToken) =>
      request("POST", contact(NotesApiPath.Notes, contactId), token, { Body, ClientToken }),
    history: (token, query) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query))
        if (typeof value === "string" && value) params.set(key, value);
      const search = params.toString();
      return request("GET", HistoryApiPath.List + (search ? `?${search}` : ""), token);
    },
    historyAdvisors: (token) => request("GET", HistoryApiPath.Advisors, token),
    earlier: (token, contactId) =>
      request("GET", contact(HistoryApiPath.Earlier, contactId), token),
    transcript: (token, contactId, after) =>
      request(
        "GET",
        contact(HistoryApiPath.Transcript, contactId) +
          (after === undefined ? "" : `?after=${after}`),
        token,
      ),
    visitor: (token, contactId) =>
      request("GET", contact(VisitorApiPath.Visitor, contactId), token),
    websocketTransport: (token) => request("POST", AgentApiPath.WebSocketTransport, token),
    eventsUrl: () => `${baseUrl}${AgentApiPath.Events}`,
    metricsText: async (token) => {
      const response = await fetcher(`${baseUrl}/metrics`, {
        headers: { accept: "text/plain", authorization: `Bearer ${token}` },
      });
      if (!response.ok) throw await toAgentApiError(response);
      return response.text();
    },
  };
}
