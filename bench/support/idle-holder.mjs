// bench/load.mjs's idle connections, held by a generator process of their own: the measuring
// generator never opens or closes the 20,000 sockets, so it stays as fresh for the message
// scenarios as a new process (session 34: the same generator after holding them measured
// PostgreSQL's 5,000 msgs/s p99 at 70-146 ms, a fresh one at 34-36 ms).
// The parent sends { relay: url, count } (sockets to the bare relay, each beating
// aws/heartbeat from a random moment) or { server: url, count } (chats set up and connected,
// as setups.mjs makes them; a throttled set-up is tried again); this process answers
// { held, refused, reasons } once all are open, and on "close" closes them and exits.
import { setups } from "./setups.mjs";
import { HEARTBEAT_MS, relaySocket } from "./wire.mjs";

const BATCH = 100;

/** `count` sockets to the relay, each sending aws/heartbeat every HEARTBEAT_MS. */
async function relaySockets(url, count) {
  const sockets = [];
  for (let i = 0; i < count; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - i) }, (_, j) =>
      relaySocket(url, `pair=idle${i + j}&role=customer`),
    );
    for (const ws of await Promise.all(batch)) {
      const beat = () => ws.send('{"topic":"aws/heartbeat"}');
      setTimeout(
        () => setInterval(beat, HEARTBEAT_MS).unref(),
        Math.random() * HEARTBEAT_MS,
      ).unref();
      sockets.push({ close: () => ws.terminate() });
    }
  }
  return { sockets, refused: 0, reasons: [] };
}

process.once("message", async ({ relay, server, count }) => {
  const { sockets, refused, reasons } = relay
    ? await relaySockets(relay, count)
    : await setups(server, count, { retry: true });
  process.send({ held: sockets.length, refused, reasons });
  process.once("message", () => {
    for (const socket of sockets) socket.close();
    process.exit(0);
  });
});
