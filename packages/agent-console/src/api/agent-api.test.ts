import { AgentApiPath } from "@chat-widget/protocol";
import { describe, expect, it, vi } from "vitest";
import { createAgentApi } from "./agent-api.js";
import { AgentApiError, errorText } from "./errors.js";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

describe("the agent API client", () => {
  it("sends the advisor's bearer token and JSON body", async () => {
    const fetch = vi.fn(async () => json(200, { Advisor: { Availability: "Available" } }));
    const api = createAgentApi({ baseUrl: "http://127.0.0.1:8080/", fetch });
    await api.setAvailability("tok", "Available");
    expect(fetch).toHaveBeenCalledWith("http://127.0.0.1:8080" + AgentApiPath.Availability, {
      method: "PUT",
      headers: {
        accept: "application/json",
        authorization: "Bearer tok",
        "content-type": "application/json",
      },
      body: JSON.stringify({ Availability: "Available" }),
    });
  });

  it("fills the contact id into contact paths", async () => {
    const fetch = vi.fn(async (_url: string) =>
      json(200, { chatTokenTransport: { participantToken: "p", expiry: "e" } }),
    );
    const api = createAgentApi({ fetch });
    await api.connectionToken("tok", "c/1");
    expect(fetch.mock.calls[0]![0]).toBe("/agent-api/contacts/c%2F1/connection-token");
  });

  it("reads the visitor panel's details with a GET of the contact's visitor path", async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) =>
      json(200, { ContactId: "c/1", Name: "Ada" }),
    );
    const visitor = await createAgentApi({ fetch }).visitor("tok", "c/1");
    expect(visitor.Name).toBe("Ada");
    expect(fetch.mock.calls[0]![0]).toBe("/agent-api/contacts/c%2F1/visitor");
    expect(fetch.mock.calls[0]![1]).toMatchObject({
      method: "GET",
      headers: { authorization: "Bearer tok" },
    });
  });

  it("rejects with the server's error name and message (AWS error shape)", async () => {
    const fetch = vi.fn(async () =>
      json(409, {
        __type: "ConflictException",
        message: "Set your availability to Available to accept chats.",
      }),
    );
    const error = await createAgentApi({ fetch })
      .accept("tok", "c1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error).toMatchObject({ type: "ConflictException", status: 409 });
    expect(errorText(error)).toBe("Set your availability to Available to accept chats.");
  });

  it("names a failure without a body by its status", async () => {
    const fetch = vi.fn(async () => new Response("oops", { status: 502 }));
    const error = (await createAgentApi({ fetch })
      .queue("tok")
      .catch((e: unknown) => e)) as AgentApiError;
    expect(error.type).toBe("502");
    expect(error.message).toBe("The request failed (HTTP 502).");
  });

  it("asks for the advisor websocket's URL", async () => {
    const transport = {
      webSocketTransport: {
        url: "ws://127.0.0.1:1/agent-api/ws?token=t",
        expiry: "x",
        transportLifeTimeInSeconds: 3540,
      },
    };
    const fetch = vi.fn(async (_url: string) => json(200, transport));
    const api = createAgentApi({ fetch });
    expect(await api.websocketTransport("tok")).toEqual(transport);
    expect(fetch.mock.calls[0]![0]).toBe(AgentApiPath.WebSocketTransport);
    expect(api.eventsUrl()).toBe(AgentApiPath.Events);
  });

  it("reads /metrics with the advisor's token (a deployment may restrict it)", async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => new Response("# metrics"));
    const api = createAgentApi({ fetch });
    expect(await api.metricsText("tok")).toBe("# metrics");
    expect(fetch.mock.calls[0]![1]!.headers).toMatchObject({ authorization: "Bearer tok" });
  });
});
