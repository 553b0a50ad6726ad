/**
 * The contact centre's own HTTP APIs as a test drives them: the gateway's start-chat and the
 * agent API (sign in as the seeded demo advisor, wait for a contact in the queue, accept it,
 * get the agent session's connection token).
 */
import {
  AgentApiPath,
  agentContactPath,
  DemoIds,
  GatewayPath,
  type AcceptResponse,
  type ConnectionTokenResponse,
  type QueueResponse,
  type SignInResponse,
  type StartChatRequest,
  type StartChatResponse,
  type StartChatResult,
} from "@chat-widget/protocol";

/** The seeded demo advisor (migrations/101_advisors.sql). */
export const DEMO_ADVISOR = { username: "demo", password: "demo", name: "Sam" } as const;

export async function json<T>(
  base: string,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(base + path, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? "POST"} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

export const startChatBody = (displayName = "Customer"): StartChatRequest => ({
  ParticipantDetails: { DisplayName: displayName },
  ContactFlowId: DemoIds.CONTACT_FLOW_ID,
  InstanceId: DemoIds.INSTANCE_ID,
  SupportedMessagingContentTypes: ["text/plain", "text/markdown"],
});

/** POST /gateway/start-chat, as the widget does. */
export async function startChat(base: string, displayName = "Customer"): Promise<StartChatResult> {
  const response = await json<StartChatResponse>(base, GatewayPath.StartChat, {
    body: startChatBody(displayName),
  });
  return response.data.startChatResult;
}

/** An advisor signed in to the agent API. */
export class Advisor {
  private constructor(
    private readonly base: string,
    readonly token: string,
    readonly signIn: SignInResponse,
  ) {}

  /** Sign in (as the demo advisor unless told otherwise) and become Available. */
  static async signIn(
    base: string,
    credentials: { username: string; password: string } = DEMO_ADVISOR,
  ): Promise<Advisor> {
    const signIn = await json<SignInResponse>(base, AgentApiPath.SignIn, {
      body: { Username: credentials.username, Password: credentials.password },
    });
    const advisor = new Advisor(base, signIn.Token, signIn);
    await json(base, AgentApiPath.Availability, {
      method: "PUT",
      token: signIn.Token,
      body: { Availability: "Available" },
    });
    return advisor;
  }

  /** Polls the queue until the contact waits in it. */
  async waitForQueued(contactId: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const queue = await json<QueueResponse>(this.base, AgentApiPath.Queue, { token: this.token });
      if (queue.Contacts.some((c) => c.ContactId === contactId)) return;
      if (Date.now() > deadline) {
        throw new Error(`contact ${contactId} not queued: ${JSON.stringify(queue)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  accept(contactId: string): Promise<AcceptResponse> {
    return json<AcceptResponse>(this.base, agentContactPath(AgentApiPath.Accept, contactId), {
      method: "POST",
      token: this.token,
    });
  }

  /** What the agent session's getConnectionToken resolves to. */
  connectionToken(contactId: string): Promise<ConnectionTokenResponse> {
    return json<ConnectionTokenResponse>(
      this.base,
      agentContactPath(AgentApiPath.ConnectionToken, contactId),
      { method: "POST", token: this.token },
    );
  }
}
