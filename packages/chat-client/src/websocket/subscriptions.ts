/**
 * Topic subscriptions of one socket (docs/protocol.md §3.7).
 * - Each `aws/subscribe` request starts a 1 s response check; with no response (any
 *   `aws/subscribe` frame) it resends; more than 3 unanswered requests in a row → failure.
 * - A failure response resends after 500 ms; the 5th consecutive failure → failure, stop.
 * - A success response marks exactly the topics it lists and resets both counters; topics it
 *   does not list stay pending.
 */
import { Topic, subscribeFrame } from "@chat-widget/protocol";
import type { SubscribeResponseContent, WebSocketEnvelope } from "@chat-widget/protocol";
import type { ClientEnv, TimerHandle } from "../env.js";
import {
  MAX_CONSECUTIVE_SUBSCRIBE_FAILURES,
  MAX_UNANSWERED_SUBSCRIBE_REQUESTS,
  SUBSCRIBE_RESPONSE_TIMEOUT_MS,
  SUBSCRIBE_RETRY_INTERVAL_MS,
} from "./constants.js";

export interface SubscriptionsOptions {
  env: Pick<ClientEnv, "setTimeout" | "clearTimeout">;
  send(frame: WebSocketEnvelope): void;
  onSubscribed(topics: string[]): void;
  onFailure(topics: string[]): void;
}

export interface Subscriptions {
  /** Ask for these topics (those not yet subscribed are sent). */
  request(topics: Iterable<string>): void;
  /** Consume an `aws/subscribe` response; returns false for any other frame. */
  handleFrame(frame: WebSocketEnvelope): boolean;
  isSubscribed(topic: string): boolean;
  /** Whether every one of these topics is confirmed. */
  covers(topics: Iterable<string>): boolean;
  stop(): void;
}

export function createSubscriptions(options: SubscriptionsOptions): Subscriptions {
  const { env } = options;
  const subscribed = new Set<string>();
  const pending = new Set<string>();
  let unanswered = 0;
  let failures = 0;
  let responseCheck: TimerHandle | undefined;
  let retryTimer: TimerHandle | undefined;
  let stopped = false;

  const clearTimers = () => {
    if (responseCheck !== undefined) env.clearTimeout(responseCheck);
    if (retryTimer !== undefined) env.clearTimeout(retryTimer);
    responseCheck = retryTimer = undefined;
  };

  const fail = () => {
    clearTimers();
    unanswered = 0;
    failures = 0;
    options.onFailure([...pending]);
  };

  const send = () => {
    clearTimers();
    if (stopped || pending.size === 0) return;
    // the check is armed before sending, so even an immediate answer finds it
    responseCheck = env.setTimeout(() => {
      responseCheck = undefined;
      unanswered += 1;
      if (unanswered > MAX_UNANSWERED_SUBSCRIBE_REQUESTS) fail();
      else send();
    }, SUBSCRIBE_RESPONSE_TIMEOUT_MS);
    options.send(subscribeFrame([...pending]));
  };

  return {
    request(topics) {
      for (const topic of topics) if (!subscribed.has(topic)) pending.add(topic);
      send();
    },
    handleFrame(frame) {
      if (frame.topic !== Topic.SUBSCRIBE) return false;
      if (stopped) return true;
      clearTimers();
      unanswered = 0;
      const content = (frame.content ?? {}) as Partial<SubscribeResponseContent>;
      const listed = Array.isArray(content.topics)
        ? content.topics.filter((t): t is string => typeof t === "string")
        : [];
      if (content.status === "success") {
        failures = 0;
        for (const topic of listed) {
          pending.delete(topic);
          subscribed.add(topic);
        }
        options.onSubscribed(listed);
        return true;
      }
      failures += 1;
      if (failures >= MAX_CONSECUTIVE_SUBSCRIBE_FAILURES) fail();
      else retryTimer = env.setTimeout(send, SUBSCRIBE_RETRY_INTERVAL_MS);
      return true;
    },
    isSubscribed: (topic) => subscribed.has(topic),
    covers(topics) {
      for (const topic of topics) if (!subscribed.has(topic)) return false;
      return true;
    },
    stop() {
      stopped = true;
      clearTimers();
    },
  };
}
