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

  it("a chat nobody takes is disconnected with the connection's token; one taken, or never connected, is not", async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const network = (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return Promise.resolve(
        url.endsWith("/connection")
          ? Response.json({
              ConnectionCredentials: {
                ConnectionToken: `conn-of-${init?.headers ? new Headers(init.headers).get("x-amz-bearer") : ""}`,
              },
            })
          : new Response("{}"),
      );
    };
    const early = earlyConnection("https://centre.example/prefix", network);
    early.begin("token-1");
    early.begin("token-2");
    await early.end("token-1");
    expect(calls.map((c) => c.url.replace("https://centre.example/prefix", ""))).toEqual([
      "/participant/connection",
      "/participant/connection",
      "/participant/disconnect",
    ]);
    expect(new Headers(calls[2]!.init?.headers).get("x-amz-bearer")).toBe("conn-of-token-1");
    // The other chat's connection is still there for its client.
    const session = vi.fn(() => Promise.resolve(answer("session")));
    const taken = await early.wrap(session)(URL_, clientRequest("token-2"));
    expect(await taken.json()).toEqual({
      ConnectionCredentials: { ConnectionToken: "conn-of-token-2" },
    });
    await early.end("token-2");
    await early.end("token-3");
    expect(calls).toHaveLength(3);
  });

  it("a connection that failed leaves nothing to disconnect, and no error", async () => {
    const network = vi.fn((url: string) =>
      url.endsWith("/connection")
        ? Promise.resolve(new Response("{}", { status: 403 }))
        : Promise.resolve(new Response("{}")),
    );
    const early = earlyConnection("https://centre.example", network);
    early.begin("token-1");
    await expect(early.end("token-1")).resolves.toBeUndefined();
    expect(network).toHaveBeenCalledTimes(1);
  });
});
