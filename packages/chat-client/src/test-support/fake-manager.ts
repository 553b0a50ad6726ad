/** A websocket manager the test drives by hand (gain, lose, deliver items, heartbeats). */
import { Topic, chatFrame, type Item, type WebSocketEnvelope } from "@chat-widget/protocol";
import type { TransportFetcher, Unsubscribe, WebSocketManager } from "../websocket/types.js";

type Listener = (...args: never[]) => void;

export class FakeWebSocketManager implements WebSocketManager {
  readonly fetchers: TransportFetcher[] = [];
  readonly topics: string[] = [];
  closed = 0;
  terminated = 0;
  /** How often the session said the service answered one of its requests. */
  answered = 0;
  private readonly listeners = new Map<string, Set<Listener>>();

  serviceAnswered(): void {
    this.answered++;
  }

  init(fetcher: TransportFetcher) {
    this.fetchers.push(fetcher);
    return Promise.resolve({ websocketInitFailed: false });
  }
  subscribeTopics(topics: string[]): void {
    this.topics.push(...topics);
  }
  sendMessage(): void {}
  onMessage(topic: string, cb: (frame: WebSocketEnvelope) => void): Unsubscribe {
    return this.add(`message:${topic}`, cb);
  }
  onAllMessage(cb: (frame: WebSocketEnvelope) => void): Unsubscribe {
    return this.add("all", cb);
  }
  onConnectionGain(cb: () => void): Unsubscribe {
    return this.add("gain", cb);
  }
  onConnectionLost(cb: () => void): Unsubscribe {
    return this.add("lost", cb);
  }
  onInitFailure(cb: () => void): Unsubscribe {
    return this.add("initFailure", cb);
  }
  onDeepHeartbeatSuccess(cb: () => void): Unsubscribe {
    return this.add("dhSuccess", cb);
  }
  onDeepHeartbeatFailure(cb: () => void): Unsubscribe {
    return this.add("dhFailure", cb);
  }
  onSubscriptionUpdate(cb: (topics: string[]) => void): Unsubscribe {
    return this.add("subUpdate", cb);
  }
  onSubscriptionFailure(cb: (topics: string[]) => void): Unsubscribe {
    return this.add("subFailure", cb);
  }
  closeWebSocket(): void {
    this.closed++;
  }
  terminate(): void {
    this.terminated++;
  }

  // ---- driven by the test ----
  gain(): void {
    this.fire("gain");
  }
  lose(): void {
    this.fire("lost");
  }
  /** The server confirmed these topics (by default `aws/chat`). */
  subscribed(topics: string[] = [Topic.CHAT]): void {
    this.fire("subUpdate", topics);
  }
  /** What a (re)connection does: the socket opens, then the subscription is confirmed. */
  reconnect(): void {
    this.gain();
    this.subscribed();
  }
  initFailure(): void {
    this.fire("initFailure");
  }
  heartbeat(ok: boolean): void {
    this.fire(ok ? "dhSuccess" : "dhFailure");
  }
  frame(frame: WebSocketEnvelope): void {
    this.fire(`message:${frame.topic ?? ""}`, frame);
  }
  item(item: Item): void {
    this.frame(chatFrame(item));
  }
  /** Call the last fetcher the manager was given (what a reconnect does). */
  fetch() {
    const fetcher = this.fetchers.at(-1);
    if (!fetcher) throw new Error("manager was not initialised");
    return fetcher();
  }
  listenerCount(name: string): number {
    return this.listeners.get(name)?.size ?? 0;
  }
  get chatTopic(): string {
    return Topic.CHAT;
  }

  private add(name: string, cb: Listener): Unsubscribe {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(cb);
    return () => void set.delete(cb);
  }
  private fire(name: string, ...args: unknown[]): void {
    for (const cb of [...(this.listeners.get(name) ?? [])])
      (cb as (...a: unknown[]) => void)(...args);
  }
}
