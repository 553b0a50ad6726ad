// The baseline of bench/load.mjs: a bare `ws` relay, nothing stored, nothing checked. A socket
// connects to /?pair=<n>&role=customer|advisor; every frame a customer sends goes as it is to
// the advisor of its pair, except a heartbeat, answered as the contact centre answers it (what
// a bare relay must do to hold chat clients). Sends { url } to the parent once listening.
import { WebSocketServer } from "ws";

const HEARTBEAT = JSON.stringify({ topic: "aws/heartbeat" });

const advisors = new Map();
const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
server.on("connection", (socket, request) => {
  const query = new URL(request.url ?? "/", "http://relay").searchParams;
  const pair = query.get("pair");
  if (query.get("role") === "advisor") {
    advisors.set(pair, socket);
    return;
  }
  socket.on("message", (data, isBinary) => {
    if (!isBinary && data.length === HEARTBEAT.length && String(data) === HEARTBEAT)
      socket.send(HEARTBEAT);
    else advisors.get(pair)?.send(data, { binary: isBinary });
  });
});
server.on("listening", () => process.send({ url: `ws://127.0.0.1:${server.address().port}` }));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
