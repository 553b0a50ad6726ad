/**
 * The websocket the first script opens before the app (issue 61), against a real websocket
 * server on loopback (the `ws` package) and the `ws` client, which has the browser's events.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WebSocket as NodeSocket, WebSocketServer } from "ws";
import type { WebSocketConstructor, WebSocketLike } from "@chat-widget/chat-client";
import { CONNECTION_BODY, earlyConnection } from "./early-connection.js";
import { MAX_HELD_EVENTS, holdSocket } from "./early-socket.js";
import type { EventSocket } from "./early-socket.js";

let server: WebSocketServer;
let url: string;
/** What each connection the server accepted received, in order. */
let connections: string[][];
/** Connections closed: this test's own (a socket of the test before may close late). */
let seen: { closed: number };
/** Frames the server sends each new connection at once. */
let greeting: string[];

beforeEach(async () => {
  connections = [];
  const own = { closed: 0 };
  seen = own;
  greeting = [];
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  server.on("connection", (socket) => {
    const received: string[] = [];
    connections.push(received);
    socket.on("message", (data) => received.push(String(data)));
    socket.on("close", () => own.closed++);
    for (const frame of greeting) socket.send(frame);
  });
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  url = `ws://127.0.0.1:${port}/participant/ws?token=t1`;
});

afterEach(async () => {
  for (const client of server.clients) client.terminate();
  await new Promise((resolve) => server.close(resolve));
});

const open = (address: string) => new NodeSocket(address) as unknown as EventSocket;
const OwnSocket = NodeSocket as unknown as WebSocketConstructor;

/** The client's part: make the socket, then set its handlers at once, as Connection does. */
function listen(socket: WebSocketLike) {
  const events: string[] = [];
  socket.onopen = () => events.push("open");
  socket.onmessage = (event) => events.push(`message ${String(event.data)}`);
  socket.onerror = () => events.push("error");
  socket.onclose = (event) => events.push(`close ${event.code}`);
  return events;
}

describe("the socket held for the client", () => {
  it("gives the client its open, which came before it listened, then what comes after", async () => {
    greeting = ["hello"];
    const held = holdSocket(open(url));
    await vi.waitFor(() => expect(connections).toHaveLength(1));
    // The open and the greeting arrive before the client takes the socket.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const socket = held.take()!;
    expect(socket.readyState).toBe(NodeSocket.OPEN);
    const events = listen(socket);
    expect(events).toEqual([]);
    await vi.waitFor(() => expect(events).toEqual(["open", "message hello"]));
    socket.send("subscribe");
    await vi.waitFor(() => expect(connections[0]).toEqual(["subscribe"]));
    for (const client of server.clients) client.send("after");
    await vi.waitFor(() => expect(events).toEqual(["open", "message hello", "message after"]));
    socket.close(1000, "bye");
    await vi.waitFor(() => expect(events.at(-1)).toBe("close 1000"));
    expect(held.take()).toBeNull();
    expect(connections).toHaveLength(1);
  });

  it("taken while it still connects, the client hears the open when it comes", async () => {
    const held = holdSocket(open(url));
    const socket = held.take()!;
    expect(socket.readyState).toBe(NodeSocket.CONNECTING);
    const events = listen(socket);
    await vi.waitFor(() => expect(events).toEqual(["open"]));
  });

  it(`past ${MAX_HELD_EVENTS} events before the client it is closed, and not given out`, async () => {
    greeting = Array.from({ length: MAX_HELD_EVENTS + 1 }, (_, i) => `frame ${i}`);
    const held = holdSocket(open(url));
    await vi.waitFor(() => expect(seen.closed).toBe(1));
    expect(held.take()).toBeNull();
  });

  it("dropped, it closes; once taken, dropping leaves it to the client", async () => {
    const socket = open(url);
    const dropped = holdSocket(socket);
    await vi.waitFor(() => expect(socket.readyState).toBe(NodeSocket.OPEN));
    dropped.drop();
    await vi.waitFor(() => expect(seen.closed).toBe(1));
    expect(dropped.take()).toBeNull();
    // Dropped while it still connects: it never opens.
    const early = open(url);
    holdSocket(early).drop();
    await vi.waitFor(() => expect(early.readyState).toBe(NodeSocket.CLOSED));
    const kept = holdSocket(open(url));
    const events = listen(kept.take()!);
    kept.drop();
    await vi.waitFor(() => expect(events).toEqual(["open"]));
    expect(seen.closed).toBe(1);
  });
});

describe("the early connection's socket", () => {
  const endpoint = "https://centre.example";
  const connectionAnswer = () =>
    Promise.resolve(
      Response.json({
        Websocket: { Url: url, ConnectionExpiry: "2030-01-01T00:00:00Z" },
        ConnectionCredentials: { ConnectionToken: "conn-1", Expiry: "2030-01-01T00:00:00Z" },
      }),
    );
  const clientRequest = (token: string): RequestInit => ({
    method: "POST",
    headers: { "Content-Type": "application/json", "x-amz-bearer": token },
    body: CONNECTION_BODY,
  });

  it("opens as soon as the answer names it; the client's socket for that address is it, and only the first", async () => {
    const early = earlyConnection(endpoint, connectionAnswer, open);
    early.begin("token-1");
    // Open before the app asked for anything.
    await vi.waitFor(() => expect(connections).toHaveLength(1));
    const answer = await early.wrap(() => Promise.reject(new Error("not asked")))(
      `${endpoint}/participant/connection`,
      clientRequest("token-1"),
    );
    // The client still reads the whole answer.
    expect((await answer.json()).Websocket.Url).toBe(url);
    const Socket = early.wrapSocket(OwnSocket);
    const events = listen(new Socket(url));
    await vi.waitFor(() => expect(events).toEqual(["open"]));
    expect(connections).toHaveLength(1);
    // A later socket (a reconnect) is the client's own.
    const again = listen(new Socket(url));
    await vi.waitFor(() => expect(again).toEqual(["open"]));
    expect(connections).toHaveLength(2);
  });

  it("none when the client took the answer first: the client opens its own", async () => {
    let answered: (response: Response) => void = () => {};
    const early = earlyConnection(
      endpoint,
      () => new Promise<Response>((resolve) => (answered = resolve)),
      open,
    );
    early.begin("token-1");
    const taken = early.wrap(() => Promise.reject(new Error("not asked")))(
      `${endpoint}/participant/connection`,
      clientRequest("token-1"),
    );
    answered(await connectionAnswer());
    await taken;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connections).toHaveLength(0);
    const events = listen(new (early.wrapSocket(OwnSocket))(url));
    await vi.waitFor(() => expect(events).toEqual(["open"]));
    expect(connections).toHaveLength(1);
  });

  it("a chat nobody takes has its socket closed with it", async () => {
    const network = (input: string) =>
      input.endsWith("/connection") ? connectionAnswer() : Promise.resolve(Response.json({}));
    const early = earlyConnection(endpoint, network, open);
    early.begin("token-1");
    await vi.waitFor(() => expect(connections).toHaveLength(1));
    await early.end("token-1");
    await vi.waitFor(() => expect(seen.closed).toBe(1));
  });
});
