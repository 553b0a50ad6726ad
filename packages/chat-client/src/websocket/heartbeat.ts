/**
 * Heartbeat of one socket (docs/protocol.md §3.6). Every 10 s, the first beat right after open:
 * 1. a still-unanswered `aws/ping` → deep heartbeat failure (no reconnect by itself);
 * 2. a still-unanswered `aws/heartbeat` → stop and time out (the manager reconnects);
 * 3. otherwise, if the socket is open, send `aws/ping` and `aws/heartbeat`; if it is not,
 *    deep heartbeat failure and time out.
 * Besides the timer it keeps a wall-clock deadline (`checkOverdue`), so a beat that a sleeping
 * laptop never ran is run as soon as anything wakes the manager.
 */
import { Topic, heartbeatFrame, pingFrame } from "@chat-widget/protocol";
import type { WebSocketEnvelope } from "@chat-widget/protocol";
import type { ClientEnv, TimerHandle } from "../env.js";
import { HEARTBEAT_INTERVAL_MS } from "./constants.js";

export interface HeartbeatOptions {
  env: Pick<ClientEnv, "setTimeout" | "clearTimeout" | "now">;
  isOpen(): boolean;
  send(frame: WebSocketEnvelope): void;
  onDeepSuccess(): void;
  onDeepFailure(): void;
  /** The heartbeat went unanswered (or the socket is not open): reconnect. */
  onTimeout(): void;
  intervalMs?: number;
}

export interface Heartbeat {
  start(): void;
  stop(): void;
  /** Consume a heartbeat or ping reply; returns false for any other frame. */
  handleFrame(frame: WebSocketEnvelope): boolean;
  /** Run the beat now if the wall clock says it is due but its timer has not fired. */
  checkOverdue(): void;
  readonly running: boolean;
}

export function createHeartbeat(options: HeartbeatOptions): Heartbeat {
  const { env } = options;
  const intervalMs = options.intervalMs ?? HEARTBEAT_INTERVAL_MS;
  let timer: TimerHandle | undefined;
  let running = false;
  let nextBeatAt = 0;
  let pingPending = false;
  let heartbeatPending = false;

  const clear = () => {
    if (timer !== undefined) env.clearTimeout(timer);
    timer = undefined;
  };

  const schedule = () => {
    nextBeatAt = env.now() + intervalMs;
    timer = env.setTimeout(beat, intervalMs);
  };

  const stop = () => {
    running = false;
    clear();
  };

  function beat(): void {
    clear();
    if (!running) return;
    if (pingPending) {
      pingPending = false;
      options.onDeepFailure();
      if (!running) return;
    }
    if (heartbeatPending) {
      stop();
      options.onTimeout();
      return;
    }
    if (!options.isOpen()) {
      stop();
      options.onDeepFailure();
      options.onTimeout();
      return;
    }
    pingPending = true;
    heartbeatPending = true;
    options.send(pingFrame());
    options.send(heartbeatFrame());
    schedule();
  }

  return {
    start() {
      stop();
      running = true;
      pingPending = false;
      heartbeatPending = false;
      beat();
    },
    stop,
    handleFrame(frame) {
      if (frame.topic === Topic.HEARTBEAT) {
        heartbeatPending = false;
        return true;
      }
      if (frame.topic === Topic.PING) {
        if (!pingPending) return true;
        pingPending = false;
        if (frame.statusCode === 200) options.onDeepSuccess();
        else options.onDeepFailure();
        return true;
      }
      return false;
    },
    checkOverdue() {
      if (running && env.now() >= nextBeatAt) beat();
    },
    get running() {
      return running;
    },
  };
}
