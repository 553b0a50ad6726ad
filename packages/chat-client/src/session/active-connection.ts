/**
 * The check every operation makes first (docs/product.md §8): a request goes out only on an active
 * connection; otherwise the reason is logged and the call rejected with
 * "Failed to call <method>, No active connection".
 */
import { noActiveConnection } from "../core/errors.js";
import type { ClientLogger } from "../core/logger.js";
import { CONNECTION_STATUSES } from "./connection-helper.js";
import type { SessionState } from "./session-state.js";

/** Whether a request may go out now; logs why not (docs/product.md §8). */
export function isActive(state: SessionState, method: string, logger: ClientLogger): boolean {
  if (state.participantDisconnected) {
    logger.error(`Cannot call ${method} when participant is disconnected`);
    return false;
  }
  if (!state.connection) {
    logger.error(`Cannot call ${method} before calling connect()`);
    return false;
  }
  const status = state.connection.getStatus();
  if (!CONNECTION_STATUSES.includes(status)) {
    logger.error(`Unknown connection status: ${String(status)}`);
    return false;
  }
  return true;
}

/** `run()` when the connection is active, else the "No active connection" rejection. */
export function whenActive<T>(
  state: SessionState,
  method: string,
  logger: ClientLogger,
  run: () => Promise<T>,
): Promise<T> {
  return isActive(state, method, logger) ? run() : Promise.reject(noActiveConnection(method));
}
