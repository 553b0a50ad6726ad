/**
 * Every 250 ms compare the host's online flag with the last value (docs/protocol.md §3.9): going online
 * calls `onOnline`, going offline calls `onOffline`. `onTick` runs on every check (the manager
 * uses it for the heartbeat's wall-clock deadline).
 */
import type { ClientEnv, TimerHandle } from "../env.js";
import { NETWORK_CHECK_INTERVAL_MS } from "./constants.js";

export interface NetworkMonitorOptions {
  env: Pick<ClientEnv, "setInterval" | "clearInterval" | "isOnline">;
  onOnline(): void;
  onOffline(): void;
  onTick?(): void;
}

export interface NetworkMonitor {
  start(): void;
  stop(): void;
}

export function createNetworkMonitor(options: NetworkMonitorOptions): NetworkMonitor {
  const { env } = options;
  let timer: TimerHandle | undefined;
  let online = true;

  const stop = () => {
    if (timer !== undefined) env.clearInterval(timer);
    timer = undefined;
  };

  return {
    start() {
      stop();
      online = env.isOnline();
      timer = env.setInterval(() => {
        const now = env.isOnline();
        if (now !== online) {
          online = now;
          if (now) options.onOnline();
          else options.onOffline();
        }
        options.onTick?.();
      }, NETWORK_CHECK_INTERVAL_MS);
    },
    stop,
  };
}
