/** The advisor's side over plain HTTP: agent API (sign in, accept) and the participant API. */
import {
  AgentApiPath,
  BEARER_HEADER,
  ParticipantPath,
  agentContactPath,
} from "@chat-widget/protocol";
import type { AcceptResponse, Item, QueueResponse, SignInResponse } from "@chat-widget/protocol";

async function call<T>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown },
): Promise<T> {
  const response = await fetch(url, {
    method: init.method ?? "POST",
    headers: {
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

export interface AdvisorChat {
  name: string;
  send(content: string, contentType?: string): Promise<{ Id: string }>;
  event(contentType: string, content?: string): Promise<void>;
  transcript(): Promise<Item[]>;
  attach(name: string, contentType: string, data: Buffer): Promise<void>;
  /** End the chat, as the console's End chat does. */
  end(): Promise<void>;
}

/** Sign in the demo advisor, wait for the contact in the queue, accept it and connect. */
export async function advisorTakes(base: string, contactId: string): Promise<AdvisorChat> {
  const signIn = await call<SignInResponse>(base + AgentApiPath.SignIn, {
    body: { Username: "demo", Password: "demo" },
  });
  const auth = { authorization: `Bearer ${signIn.Token}` };
  await call(base + AgentApiPath.Availability, {
    method: "PUT",
    headers: auth,
    body: { Availability: "Available" },
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const queue = await call<QueueResponse>(base + AgentApiPath.Queue, {
      method: "GET",
      headers: auth,
    });
    if (queue.Contacts.some((c) => c.ContactId === contactId)) break;
    if (Date.now() > deadline) throw new Error("the contact never reached the queue");
    await new Promise((r) => setTimeout(r, 100));
  }
  const accepted = await call<AcceptResponse>(
    base + agentContactPath(AgentApiPath.Accept, contactId),
    { headers: auth },
  );
  const connection = await call<{ ConnectionCredentials: { ConnectionToken: string } }>(
    base + ParticipantPath.CreateParticipantConnection,
    {
      headers: { [BEARER_HEADER]: accepted.ParticipantToken },
      body: { Type: ["CONNECTION_CREDENTIALS"], ConnectParticipant: true },
    },
  );
  const bearer = { [BEARER_HEADER]: connection.ConnectionCredentials.ConnectionToken };
  return {
    name: signIn.Advisor.Name,
    send: (content, contentType = "text/plain") =>
      call(base + ParticipantPath.SendMessage, {
        headers: bearer,
        body: { ContentType: contentType, Content: content },
      }),
    event: async (contentType, content) => {
      await call(base + ParticipantPath.SendEvent, {
        headers: bearer,
        body:
          content === undefined
            ? { ContentType: contentType }
            : { ContentType: contentType, Content: content },
      });
    },
    transcript: async () =>
      (
        await call<{ Transcript: Item[] }>(base + ParticipantPath.GetTranscript, {
          headers: bearer,
          body: { MaxResults: 100, ScanDirection: "BACKWARD", SortOrder: "ASCENDING" },
        })
      ).Transcript,
    end: async () => {
      await call(base + agentContactPath(AgentApiPath.End, contactId), { headers: auth });
    },
    attach: async (name, contentType, data) => {
      const started = await call<{
        AttachmentId: string;
        UploadMetadata: { Url: string; HeadersToInclude: Record<string, string> };
      }>(base + ParticipantPath.StartAttachmentUpload, {
        headers: bearer,
        body: {
          ContentType: contentType,
          AttachmentSizeInBytes: data.length,
          AttachmentName: name,
          ClientToken: `c-${Date.now()}`,
        },
      });
      const put = await fetch(started.UploadMetadata.Url, {
        method: "PUT",
        headers: started.UploadMetadata.HeadersToInclude,
        body: new Uint8Array(data),
      });
      if (!put.ok) throw new Error(`upload PUT ${put.status}`);
      await call(base + ParticipantPath.CompleteAttachmentUpload, {
        headers: bearer,
        body: { AttachmentIds: [started.AttachmentId], ClientToken: `c-${Date.now()}` },
      });
    },
  };
}
