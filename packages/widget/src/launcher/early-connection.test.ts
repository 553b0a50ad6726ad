import { describe, expect, it, vi } from "vitest";
import { CONNECTION_BODY, earlyConnection } from "./early-connection.js";

const URL_ = "https://centre.example/prefix/participant/connection";
const answer = (body: string) => new Response(body, { status: 200 });
/** The request the chat client sends to connect a customer (participant-client.ts). */
const clientRequest = (token: string, body = CONNECTION_BODY): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json", "x-amz-bearer": token },
  body,
  signal: new AbortController().signal,
});

describe("the connection asked for before the app (issue 61)", () => {
  it("goes out as the client would send it, once the chat has started", () => {
    const network = vi.fn((_input: string, _init?: RequestInit) => Promise.resolve(answer("{}")));
    earlyConnection("https://centre.example/prefix/", network).begin("token-1");
    expect(network).toHaveBeenCalledTimes(1);
    const [url, init] = network.mock.calls[0]!;
    expect(url).toBe(URL_);
    expect(init?.method).toBe("POST");
    expect(new Headers(init?.headers).get("x-amz-bearer")).toBe("token-1");
    expect(JSON.parse(init?.body as string)).toEqual({
      Type: ["WEBSOCKET", "CONNECTION_CREDENTIALS"],
    });
  });

  it("the client's own request for it gets that answer, once; the next goes to the network", async () => {
    const network = vi.fn(() => Promise.resolve(answer("early")));
    const early = earlyConnection("https://centre.example/prefix", network);
    early.begin("token-1");
    const session = vi.fn(() => Promise.resolve(answer("session")));
    const fetch = early.wrap(session);
    expect(await (await fetch(URL_, clientRequest("token-1"))).text()).toBe("early");
    expect(session).not.toHaveBeenCalled();
    expect(await (await fetch(URL_, clientRequest("token-1"))).text()).toBe("session");
    expect(network).toHaveBeenCalledTimes(1);
  });

  it("a request that differs at all — another participant, body, address or method — goes to the network", async () => {
    const early = earlyConnection("https://centre.example/prefix", () =>
      Promise.resolve(answer("early")),
    );
    early.begin("token-1");
    const session = vi.fn(() => Promise.resolve(answer("session")));
    const fetch = early.wrap(session);
    const texts = await Promise.all(
      [
        fetch(URL_, clientRequest("token-2")),
        fetch(URL_, clientRequest("token-1", JSON.stringify({ ConnectParticipant: true }))),
        fetch(`${URL_}x`, clientRequest("token-1")),
        fetch(URL_, { ...clientRequest("token-1"), method: "PUT" }),
      ].map(async (r) => (await r).text()),
    );
    expect(texts).toEqual(["session", "session", "session", "session"]);
    // Still there for the request that matches.
    expect(await (await fetch(URL_, clientRequest("token-1"))).text()).toBe("early");
  });

  it("one that failed (offline) is asked for again by the client's own request", async () => {
    const early = earlyConnection("https://centre.example/prefix", () =>
      Promise.reject(new TypeError("Failed to fetch")),
    );
    early.begin("token-1");
    const session = vi.fn(() => Promise.resolve(answer("session")));
    expect(await (await early.wrap(session)(URL_, clientRequest("token-1"))).text()).toBe(
      "session",
    );
    expect(session).toHaveBeenCalledTimes(1);
  });
});
