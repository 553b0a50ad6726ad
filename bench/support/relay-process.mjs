// The baseline of bench/load.mjs: a bare `ws` relay, nothing stored, nothing checked. A socket
// connects to /?pair=<n>&role=customer|advisor; every frame a customer sends goes as it is to
// the advisor of its pair. Sends { url } to the parent once listening.
import { WebSocketServer } from "ws";

const advisors = new Map();
const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
server.on("connection", (socket, request) => {
  const query = new URL(request.url ?? "/", "http://relay").searchParams;
  const pair = query.get("pair");
  if (query.get("role") === "advisor") {
    advisors.set(pair, socket);
    return;
  }
  socket.on("message", (data, isBinary) => advisors.get(pair)?.send(data, { binary: isBinary }));
});
server.on("listening", () => process.send({ url: `ws://127.0.0.1:${server.address().port}` }));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
