/**
 * What the parts of one chat session share: the session's dependencies and the way it emits
 * events (its state is in session-state.ts). The controller owns one of each and hands them to
 * its parts.
 */
import type { ParticipantClient } from "../api/participant-client.js";
import type { GlobalConfig } from "../core/global-config.js";
import type { ClientLogger } from "../core/logger.js";
import type { ClientEnv } from "../env.js";
import type { WebSocketManager } from "../websocket/types.js";
import type { ChatDetails, SessionType } from "./chat-details.js";
import type { ConnectionRegistry } from "./connection-helper.js";
import type { ChatEventMap, ChatEventName } from "./events.js";
import type { Transcript } from "./transcript.js";

export interface ControllerDeps {
  sessionType: SessionType;
  chatDetails: ChatDetails;
  client: ParticipantClient;
  env: ClientEnv;
  logger: ClientLogger;
  config: GlobalConfig;
  registry: ConnectionRegistry;
  /** A shared manager (agent sessions, e.g. the one Amazon Connect Streams shares). */
  websocketManager?: WebSocketManager;
  createWebSocketManager: () => WebSocketManager;
}

/** Emits one session event; the controller adds the session's chat details. */
export type EmitEvent = <K extends ChatEventName>(
  name: K,
  data: Parameters<ChatEventMap[K]>[0]["data"],
) => void;

/**
 * Applies a change to the session's transcript and emits `transcriptUpdated`, only while
 * something subscribes to it; a change that returns false changed nothing.
 */
export type TrackTranscript = (change: (transcript: Transcript) => boolean | void) => void;
