// Chat set-ups as bench/load.mjs makes them: start-chat, CreateParticipantConnection and the
// websocket subscribed to aws/chat, many at once. Shared by the set-up scenario and the idle
// holder (idle-holder.mjs), which keeps the connected chats in a generator process of its own.
import { performance } from "node:perf_hooks";
import { sleep, startChat } from "./chats.mjs";
import { connectParticipant } from "./wire.mjs";

export const SETUP_PARALLEL = 50;

/**
 * `count` chats set up, SETUP_PARALLEL at a time; with `retry`, a set-up the server throttles
 * (429) is tried again a second later. Their rate, each one's time, the sockets held, and how
 * many were refused with up to three of the reasons.
 */
export async function setups(base, count, { retry = false } = {}) {
  const each = [];
  const sockets = [];
  let refused = 0;
  const reasons = new Set();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SETUP_PARALLEL }, async () => {
      while (next < count) {
        next++;
        const t = performance.now();
        try {
          const chat = await startChat(base);
          const { socket } = await connectParticipant(base, chat.ParticipantToken);
          sockets.push(socket);
          each.push(performance.now() - t);
        } catch (error) {
          if (retry && error.status === 429) {
            next--;
            await sleep(1000);
            continue;
          }
          refused++;
          reasons.add(String(error.message).slice(0, 120));
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    rate: each.length / elapsed,
    seconds: elapsed,
    each,
    refused,
    reasons: [...reasons].slice(0, 3),
    sockets,
  };
}
