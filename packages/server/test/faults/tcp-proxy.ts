/**
 * A TCP proxy on 127.0.0.1 that the fault suite puts between the chat clients and the contact
 * centre, and switches between:
 * - pass: bytes flow both ways;
 * - reset: every connection is reset (RST) and new ones are reset on arrival;
 * - blackhole: nothing flows — open connections stall with their bytes held, new connections
 *   are accepted and never answered; back to pass, held bytes and connections carry on;
 * - refuse: open connections are reset and the port is closed (connection refused).
 * `only: "websocket"` applies reset to websocket connections alone (HTTP still passes).
 * `retarget` sends new connections to another port (a load balancer failing over). Given several
 * ports, the proxy is a round-robin load balancer: each new connection goes to the next port,
 * and to the one after it when that refuses (a process that is down or shutting down).
 * `slowWebsocketStart(ms)` holds what each new websocket sends after its upgrade request (its
 * subscribe) for `ms` from when it connected: a slow subscribe, while HTTP passes at once.
 */
import net from "node:net";

export type ProxyMode = "pass" | "reset" | "blackhole" | "refuse";

interface Pair {
  client: net.Socket;
  upstream: net.Socket | null;
  /** The upstream connection is established: held bytes can go. */
  connected: boolean;
  /** The client's first bytes asked for a websocket upgrade. */
  websocket: boolean;
  /** Bytes the client sent before the pair could forward them. */
  held: Buffer[];
  /** Bytes a slow start holds back until `slowUntil`. */
  slowed: Buffer[];
  flowing: boolean;
  /** A slow start is holding the client's bytes (after the upgrade request) until then; 0: none. */
  slowUntil: number;
  /** The server closed its side while the pair was stalled: the client is told once it flows. */
  upstreamClosed: boolean;
}

export interface TcpProxy {
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly mode: ProxyMode;
  set(mode: ProxyMode, options?: { only?: "websocket" }): Promise<void>;
  retarget(port: number | readonly number[]): void;
  slowWebsocketStart(ms: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: number | readonly number[]): Promise<TcpProxy> {
  let targets = typeof target === "number" ? [target] : [...target];
  let turn = 0;
  const pairs = new Set<Pair>();
  let mode: ProxyMode = "pass";
  let only: "websocket" | undefined;
  let slowStartMs = 0;

  const kill = (pair: Pair) => {
    pairs.delete(pair);
    if (!pair.client.destroyed) pair.client.resetAndDestroy();
    pair.upstream?.destroy();
  };
  const affected = (pair: Pair) => !only || pair.websocket;

  /** Send the bytes the pair holds, unless it is stalled or not yet connected upstream. */
  const forward = (pair: Pair) => {
    if (!pair.flowing || !pair.connected) return;
    for (const chunk of pair.held.splice(0)) pair.upstream!.write(chunk);
  };
  /** Connect upstream to the pair's next target in turn (`start`, then the others while they refuse). */
  const connectUpstream = (pair: Pair, start: number, tried = 0) => {
    const port = targets[(start + tried) % targets.length]!;
    const upstream = net.connect(port, "127.0.0.1");
    pair.upstream = upstream;
    upstream.once("connect", () => {
      pair.connected = true;
      forward(pair);
    });
    upstream.on("error", () => {
      if (pair.upstream !== upstream) return;
      if (!pair.connected && tried + 1 < targets.length && pairs.has(pair)) {
        connectUpstream(pair, start, tried + 1);
      } else kill(pair);
    });
    upstream.on("close", () => {
      if (pair.upstream !== upstream || !pair.connected) return;
      // A stalled (paused) client would never finish ending: it hears of it once it flows.
      if (!pair.flowing) return void (pair.upstreamClosed = true);
      // The server closed its side: the client gets what it sent first (a websocket's close
      // frame) and then the end, as through a load balancer. Errors above reset instead.
      pairs.delete(pair);
      if (!pair.client.destroyed) pair.client.end();
    });
    upstream.on("data", (chunk) => {
      if (!pair.client.destroyed) pair.client.write(chunk);
    });
    if (!pair.flowing) upstream.pause();
  };

  const flow = (pair: Pair) => {
    if (pair.flowing) return;
    pair.flowing = true;
    if (pair.upstreamClosed) {
      pairs.delete(pair);
      pair.client.resume();
      pair.client.end();
      return;
    }
    if (!pair.upstream) connectUpstream(pair, turn++);
    forward(pair);
    pair.client.resume();
    pair.upstream!.resume();
  };
  const stall = (pair: Pair) => {
    pair.flowing = false;
    pair.client.pause();
    pair.upstream?.pause();
  };

  /** Hold the pair's later client bytes for `ms`, then forward them in order (if it still flows). */
  const slowStart = (pair: Pair, ms: number) => {
    pair.slowUntil = Date.now() + ms;
    setTimeout(() => {
      pair.slowUntil = 0;
      pair.held.push(...pair.slowed.splice(0));
      if (pairs.has(pair)) forward(pair);
    }, ms).unref();
  };

  const server = net.createServer((client) => {
    const pair: Pair = {
      client,
      upstream: null,
      connected: false,
      websocket: false,
      held: [],
      slowed: [],
      flowing: false,
      slowUntil: 0,
      upstreamClosed: false,
    };
    pairs.add(pair);
    client.on("error", () => kill(pair));
    client.on("close", () => kill(pair));
    let first = true;
    client.on("data", (chunk) => {
      if (first) {
        first = false;
        pair.websocket = /\r\nupgrade:\s*websocket/i.test(chunk.toString("latin1"));
        if (mode === "reset" && affected(pair)) return kill(pair);
        if (pair.websocket && slowStartMs > 0) slowStart(pair, slowStartMs);
      } else if (pair.slowUntil !== 0) {
        pair.slowed.push(chunk);
        return;
      }
      pair.held.push(chunk);
      forward(pair);
    });
    if (mode === "reset" && !only) kill(pair);
    else if (mode === "blackhole") stall(pair);
    else flow(pair);
  });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  let port = 0;
  await listen();
  port = (server.address() as net.AddressInfo).port;

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return mode;
    },
    async set(next, options = {}) {
      const wasRefusing = mode === "refuse";
      mode = next;
      only = options.only;
      if (next === "reset" || next === "refuse") {
        for (const pair of [...pairs]) if (affected(pair)) kill(pair);
      }
      if (next === "refuse") await new Promise<void>((resolve) => server.close(() => resolve()));
      if (next === "blackhole") pairs.forEach(stall);
      if (next === "pass") {
        if (wasRefusing) await listen();
        pairs.forEach(flow);
      }
    },
    retarget(next) {
      targets = typeof next === "number" ? [next] : [...next];
    },
    slowWebsocketStart(ms) {
      slowStartMs = ms;
    },
    async close() {
      for (const pair of [...pairs]) kill(pair);
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
