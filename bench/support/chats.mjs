// Real chats for the server bench: the gateway's start-chat and the agent API over HTTP, and
// our chat client (its browser build, packages/chat-client/dist/browser) in Node with `ws`.
// Each "page" is a fresh instance of the client module, as a separate browser page has: its
// own global config and its own connections (a customer and an agent session of one contact
// in one instance would share the customer's websocket).
import {
  AgentApiPath,
  agentContactPath,
  ContentType,
  DemoIds,
  GatewayPath,
} from "@chat-widget/protocol";
import http from "node:http";
import WebSocket from "ws";

const BUNDLE = new URL("../../packages/chat-client/dist/browser/chat-client.js", import.meta.url);
const WAIT_MS = 30_000;
let pages = 0;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Kept-alive connections, as a browser keeps its connection to the service; Node's http costs a
 * load generator less per request than fetch, which it spends on the load instead.
 */
const agent = new http.Agent({ keepAlive: true });

/**
 * One HTTP call of the product's APIs: JSON in and out, `token` as the agent API's bearer,
 * `bearer` as the participant service's X-Amz-Bearer. A refusal rejects with its `status`.
 */
export function json(base, path, { method, token, bearer, body } = {}) {
  const headers = { origin: base };
  if (token) headers.authorization = `Bearer ${token}`;
  if (bearer) headers["x-amz-bearer"] = bearer;
  const text = body === undefined ? undefined : JSON.stringify(body);
  if (text !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(text);
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      base + path,
      { method: method ?? (text === undefined ? "GET" : "POST"), agent, headers },
      (response) => {
        let answer = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (answer += chunk));
        response.on("error", reject);
        response.on("end", () => {
          try {
            resolve(answered(path, response.statusCode ?? 0, answer));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on("error", reject);
    request.end(text);
  });
}

/** An answer's JSON (an empty one as {}); a refusal throws with its `status`. */
export function answered(path, status, text) {
  if (status >= 200 && status < 300) return text ? JSON.parse(text) : {};
  const error = new Error(`${path}: ${status} ${text}`);
  error.status = status;
  throw error;
}

/** POST /gateway/start-chat as the widget does; the startChatResult. */
export async function startChat(base) {
  const response = await json(base, GatewayPath.StartChat, {
    body: {
      ParticipantDetails: { DisplayName: "Customer" },
      ContactFlowId: DemoIds.CONTACT_FLOW_ID,
      InstanceId: DemoIds.INSTANCE_ID,
      SupportedMessagingContentTypes: [ContentType.TEXT_PLAIN, ContentType.TEXT_MARKDOWN],
    },
  });
  return response.data.startChatResult;
}

/** A chat client "page" pointed at `endpoint`: creates CUSTOMER and AGENT sessions. */
export async function clientPage(endpoint) {
  const { ChatSession } = await import(`${BUNDLE.href}?page=${++pages}`);
  ChatSession.setGlobalConfig({ endpoint, region: "eu-west-2" });
  const env = { WebSocket };
  return {
    customer: (chat) =>
      new Session(
        ChatSession.create({
          chatDetails: {
            contactId: chat.ContactId,
            participantId: chat.ParticipantId,
            participantToken: chat.ParticipantToken,
          },
          type: "CUSTOMER",
          env,
          disableCSM: true,
        }),
      ),
    agent: (advisor, accepted) =>
      new Session(
        ChatSession.create({
          chatDetails: {
            contactId: accepted.ContactId,
            initialContactId: accepted.InitialContactId,
            participantId: accepted.ParticipantId,
            participantToken: accepted.ParticipantToken,
            getConnectionToken: () => advisor.connectionToken(accepted.ContactId),
          },
          type: "AGENT",
          env,
        }),
      ),
  };
}

/** A chat session and the items its `message` event delivers. */
export class Session {
  constructor(session) {
    this.session = session;
    this.waiters = new Set();
    this.listeners = new Set();
    session.onMessage(({ data }) => {
      for (const listener of this.listeners) listener(data);
      for (const waiter of this.waiters) waiter(data);
    });
  }

  /** Calls `listener` with every item delivered from now on; returns the unsubscribe. */
  listen(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The next delivered item matching (rejects after `ms`). */
  next(match, ms = WAIT_MS) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no matching item within ${ms} ms`));
      }, ms);
      const waiter = (item) => {
        if (!match(item)) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(item);
      };
      this.waiters.add(waiter);
    });
  }

  async connect() {
    const result = await this.session.connect();
    if (!result.connectSuccess) throw new Error(`connect failed: ${JSON.stringify(result)}`);
  }

  send(text) {
    return this.session.sendMessage({ message: text, contentType: ContentType.TEXT_PLAIN });
  }

  /** Leave the chat (ends it); errors are ignored, the bench is done with it. */
  async leave() {
    await this.session.disconnectParticipant().catch(() => {});
  }
}

export const isPicker = (item) => item.ContentType === ContentType.INTERACTIVE_MESSAGE;
export const isFlowMessage = (item) => item.Type === "MESSAGE" && item.ParticipantRole === "SYSTEM";

/** An advisor signed in to the agent API (password "demo") and Available. */
export class Advisor {
  static async signIn(base, username) {
    const { Token } = await json(base, AgentApiPath.SignIn, {
      body: { Username: username, Password: "demo" },
    });
    await json(base, AgentApiPath.Availability, {
      method: "PUT",
      token: Token,
      body: { Availability: "Available" },
    });
    return new Advisor(base, Token);
  }

  constructor(base, token) {
    this.base = base;
    this.token = token;
  }

  /** Accept the contact once the flow has queued it (the queue polled every 20 ms). */
  async accept(contactId) {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const queue = await json(this.base, AgentApiPath.Queue, { token: this.token });
      if (queue.Contacts.some((c) => c.ContactId === contactId)) break;
      if (Date.now() > deadline) throw new Error(`contact ${contactId} never queued`);
      await sleep(20);
    }
    return json(this.base, agentContactPath(AgentApiPath.Accept, contactId), {
      method: "POST",
      token: this.token,
    });
  }

  connectionToken(contactId) {
    return json(this.base, agentContactPath(AgentApiPath.ConnectionToken, contactId), {
      method: "POST",
      token: this.token,
    });
  }
}

/**
 * A chat the flow hands to an advisor: the customer (on `customerPage`) starts it, chooses
 * "Talk to an advisor", the advisor accepts it and connects an AGENT session (on `agentPage`).
 * Resolves once a customer message reaches the advisor's websocket.
 */
export async function advisorChat({ customerBase, customerPage, agentPage, advisor }) {
  const chat = await startChat(customerBase);
  const customer = customerPage.customer(chat);
  const picker = customer.next(isPicker);
  await customer.connect();
  await picker;
  await customer.send("Talk to an advisor");
  const accepted = await advisor.accept(chat.ContactId);
  const agent = agentPage.agent(advisor, accepted);
  await agent.connect();
  // Until the agent's websocket is subscribed a message could miss it: send until one arrives.
  for (let attempt = 0; ; attempt++) {
    const probe = `probe ${attempt}`;
    const arrived = agent
      .next((i) => i.Content === probe, 1000)
      .then(
        () => true,
        () => false,
      );
    await customer.send(probe);
    if (await arrived) break;
    if (attempt === 20) throw new Error("the advisor's websocket never delivered");
  }
  return { contactId: chat.ContactId, customer, agent };
}
