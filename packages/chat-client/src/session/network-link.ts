/**
 * The session's network-link status, the second status set of docs/product.md §4 (chatjs's
 * `NetworkLinkStatus`): NeverEstablished before connect, Establishing while connecting,
 * Established once connected, Broken when the connection breaks. Once the connection is open
 * it follows the connection status as chatjs converts it (lost or a failed deep heartbeat is
 * Broken until the connection is gained again; ended is Broken for good).
 */
import type { ConnectionStatus } from "./connection-helper.js";

export const NetworkLinkStatus = {
  NeverEstablished: "NeverEstablished",
  Establishing: "Establishing",
  Established: "Established",
  Broken: "Broken",
} as const;
export type NetworkLinkStatus = (typeof NetworkLinkStatus)[keyof typeof NetworkLinkStatus];

export function toNetworkLinkStatus(status: ConnectionStatus): NetworkLinkStatus {
  switch (status) {
    case "NeverStarted":
      return "NeverEstablished";
    case "Starting":
      return "Establishing";
    case "Connected":
    case "DeepHeartbeatSuccess":
      return "Established";
    default:
      return "Broken";
  }
}
