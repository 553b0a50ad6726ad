/** The manager's events as one typed callback map (emitted through core's `Emitter`). */
import type { WebSocketEnvelope } from "@chat-widget/protocol";

export interface ManagerEvents {
  /** Every application frame, whatever its topic. */
  allMessage: (frame: WebSocketEnvelope) => void;
  /** A socket opened (first open, reconnect, hand-over). */
  connectionGain: () => void;
  /** The only open socket closed; once per outage. */
  connectionLost: (info?: { reason?: string }) => void;
  /** The manager terminated while initialising (invalid config, fetch rejected, socket throws). */
  initFailure: (error?: unknown) => void;
  deepHeartbeatSuccess: () => void;
  deepHeartbeatFailure: () => void;
  /** Topics a subscribe response confirmed. */
  subscriptionUpdate: (topics: string[]) => void;
  /** Topics that could not be subscribed. */
  subscriptionFailure: (topics: string[]) => void;
}
