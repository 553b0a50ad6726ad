/** A real contact centre on 127.0.0.1 port 0 (PGlite in memory, features on) and the steps the tests take. */
import {
  AgentApiPath,
  ContentType,
  DemoIds,
  agentContactPath,
  type AcceptResponse,
  type QueueResponse,
  type SignInResponse,
} from "@chat-widget/protocol";
import { startServer } from "../../../test/support/server.js";
import type { BuiltApp } from "../../app.js";

export interface Centre {
  url: string;
  built: BuiltApp;
  close(): Promise<void>;
}

export function startCentre(): Promise<Centre> {
  return startServer("pglite", { features: true });
}

export async function api<T>(
  centre: Centre,
  path: string,
  token: string | null,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(centre.url + path, {
    method: init.method ?? "POST",
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

/** The seeded demo advisor, signed in and Available. Returns the bearer token. */
export async function demoAdvisor(centre: Centre): Promise<string> {
  const signIn = await api<SignInResponse>(centre, AgentApiPath.SignIn, null, {
    body: { Username: "demo", Password: "demo" },
  });
  if (signIn.status !== 200) throw new Error(`sign-in ${signIn.status}`);
  const token = signIn.body.Token;
  await api(centre, AgentApiPath.Availability, token, {
    method: "PUT",
    body: { Availability: "Available" },
  });
  return token;
}

/** A customer who asks the bot for an advisor; resolves once the contact waits in the queue. */
export async function queuedCustomer(centre: Centre, token: string, name = "Customer") {
  const { centre: cc } = centre.built.deps;
  let menuShown: () => void = () => {};
  const menu = new Promise<void>((resolve) => (menuShown = resolve));
  const offered = new Set<string>();
  const stop = cc.onItemCommitted((contact, item) => {
    if (item.ContentType === ContentType.INTERACTIVE_MESSAGE) offered.add(contact.contactId);
    if (offered.has(customerId)) menuShown();
  });
  let customerId = "";
  const customer = await cc.startChat({
    instanceId: DemoIds.INSTANCE_ID,
    contactFlowId: DemoIds.CONTACT_FLOW_ID,
    displayName: name,
    supportedContentTypes: [ContentType.TEXT_PLAIN, ContentType.TEXT_MARKDOWN],
  });
  const say = (content: string) =>
    cc.postMessage(customer.contactId, customer.participantId, {
      contentType: ContentType.TEXT_PLAIN,
      content,
    });
  customerId = customer.contactId;
  if (offered.has(customerId)) menuShown();
  await menu;
  stop();
  const deadline = Date.now() + 10_000;
  await say("Talk to an advisor");
  for (;;) {
    const queue = await api<QueueResponse>(centre, AgentApiPath.Queue, token, { method: "GET" });
    if (queue.body.Contacts.some((c) => c.ContactId === customer.contactId)) break;
    if (Date.now() > deadline) throw new Error("the contact never reached the queue");
    await new Promise((r) => setTimeout(r, 50));
  }
  return { ...customer, say };
}

export async function accept(
  centre: Centre,
  token: string,
  contactId: string,
): Promise<AcceptResponse> {
  const r = await api<AcceptResponse>(
    centre,
    agentContactPath(AgentApiPath.Accept, contactId),
    token,
  );
  if (r.status !== 200) throw new Error(`accept ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
