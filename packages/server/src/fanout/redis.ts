import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { FanOut } from "./fanout.js";
import { LocalBus } from "./memory.js";

interface Envelope {
  node: string;
  message: unknown;
}

/**
 * The channel on which a process says its publications failed while Redis was away: every
 * process then treats its subscribers as interrupted (onResume), as it does its own.
 */
export const RESUME_CHANNEL = "fanout-resume";

/**
 * Redis pub/sub fan-out: several server processes share one contact centre. A process
 * delivers its own publications locally at once and drops their Redis echo by node id, before
 * parsing it. Its subscriptions are made again, by itself, each time the subscriber connection
 * is back (ioredis' own resubscription gives no moment at which it is done); then onResume.
 */
export async function createRedisFanOut(
  url: string,
  onError: (error: unknown) => void = () => {},
  /** Put before every channel's name in Redis (REDIS_KEY_PREFIX): deployments keep apart. */
  prefix = "",
): Promise<FanOut> {
  const node = randomUUID();
  const bus = new LocalBus(onError);
  const resumed = new Set<() => void>();
  // A publication is never queued for a Redis that is away: it fails at once (see send).
  const publisher = new Redis(url, { lazyConnect: true, enableOfflineQueue: false });
  const subscriber = new Redis(url, { lazyConnect: true, autoResubscribe: false });
  publisher.on("error", onError);
  subscriber.on("error", onError);
  let closing = false;
  /** The subscriber's connection closed: its subscriptions are gone until resubscribed. */
  let cut = false;
  /** A publication failed: once the publisher is back, every process is told (RESUME_CHANNEL). */
  let failedPublish = false;

  const resume = () => {
    for (const listener of [...resumed]) {
      try {
        listener();
      } catch (error) {
        onError(error);
      }
    }
  };
  subscriber.on("close", () => {
    if (!closing) cut = true;
  });
  subscriber.on("ready", () => {
    if (!cut || closing) return;
    cut = false;
    const channels = [RESUME_CHANNEL, ...bus.names()].map((name) => prefix + name);
    subscriber.subscribe(...channels).then(resume, (error: unknown) => {
      // Cut again before it was done: the next "ready" tries again.
      onError(error);
      cut = true;
      subscriber.disconnect(true);
    });
  });
  publisher.on("ready", () => {
    if (!failedPublish || closing) return;
    failedPublish = false;
    void send(RESUME_CHANNEL, null);
  });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  await subscriber.subscribe(prefix + RESUME_CHANNEL);

  // Its own publications come back from Redis too: dropped by their first characters, unparsed
  // (JSON.stringify writes an envelope's `node` first, as every version has).
  const ownEcho = JSON.stringify({ node, message: null }).slice(0, -"null}".length);
  subscriber.on("message", (prefixed: string, raw: string) => {
    if (raw.startsWith(ownEcho) || !prefixed.startsWith(prefix)) return;
    const channel = prefixed.slice(prefix.length);
    if (channel === RESUME_CHANNEL) return resume();
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch (error) {
      onError(error);
      return;
    }
    bus.deliver(channel, envelope.message, true);
  });

  /**
   * Publishes to Redis, in order on one connection; while Redis is away a publication fails at
   * once and is not retried (its subscribers elsewhere read what they missed on the word sent
   * once Redis is back).
   */
  async function send(channel: string, message: unknown): Promise<void> {
    try {
      if (publisher.status !== "ready")
        throw new Error(`Redis is not connected (${publisher.status})`);
      const text = JSON.stringify({ node, message } satisfies Envelope);
      await publisher.publish(prefix + channel, text);
    } catch (error) {
      // Reported once an outage, not once a publication.
      if (!failedPublish) onError(error);
      failedPublish = true;
    }
  }

  return {
    async publish(channel, message) {
      bus.deliver(channel, message, false);
      void send(channel, message);
    },
    async probe() {
      if (publisher.status !== "ready")
        throw new Error(`Redis is not connected (${publisher.status})`);
      await publisher.ping();
    },
    async subscribe(channel, handler) {
      if (bus.add(channel, handler)) await subscriber.subscribe(prefix + channel);
      return async () => {
        if (bus.remove(channel, handler)) await subscriber.unsubscribe(prefix + channel);
      };
    },
    onResume(listener) {
      resumed.add(listener);
      return () => resumed.delete(listener);
    },
    async close() {
      closing = true;
      bus.clear();
      resumed.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
