import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { FanOut } from "./fanout.js";
import { LocalBus } from "./memory.js";

interface Envelope {
  node: string;
  message: unknown;
}

/**
 * Redis pub/sub fan-out: several server processes share one contact centre. A process
 * delivers its own publications locally at once and drops their Redis echo by node id, before
 * parsing it.
 */
export async function createRedisFanOut(
  url: string,
  onError: (error: unknown) => void = () => {},
): Promise<FanOut> {
  const node = randomUUID();
  const bus = new LocalBus(onError);
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true });
  publisher.on("error", onError);
  subscriber.on("error", onError);
  await Promise.all([publisher.connect(), subscriber.connect()]);

  // Its own publications come back from Redis too: dropped by their first characters, unparsed
  // (JSON.stringify writes an envelope's `node` first, as every version has).
  const ownEcho = JSON.stringify({ node, message: null }).slice(0, -"null}".length);
  subscriber.on("message", (channel: string, raw: string) => {
    if (raw.startsWith(ownEcho)) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch (error) {
      onError(error);
      return;
    }
    bus.deliver(channel, envelope.message, true);
  });

  return {
    async publish(channel, message) {
      bus.deliver(channel, message, false);
      await publisher.publish(channel, JSON.stringify({ node, message } satisfies Envelope));
    },
    async subscribe(channel, handler) {
      if (bus.add(channel, handler)) await subscriber.subscribe(channel);
      return async () => {
        if (bus.remove(channel, handler)) await subscriber.unsubscribe(channel);
      };
    },
    async close() {
      bus.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
