/** The local contact centre: build it, configure it, and the interfaces its parts share. */
export { buildApp, listen } from "./app.js";
export type { AppOverrides, BuiltApp } from "./app.js";
export { loadConfig } from "./config.js";
export type { ServerConfig } from "./config.js";
export type { ServerDeps } from "./deps.js";
export type { Clock } from "./clock.js";
export { systemClock } from "./clock.js";
export { Errors, ServiceError, errorBody, isServiceError } from "./errors.js";
export type {
  AttachmentInput,
  ConnectionTokenGrant,
  Contact,
  ContactCentre,
  NewParticipant,
  Participant,
  PostInput,
  Role,
  StartChatInput,
} from "./contact-centre/types.js";
export { CENTRE_CHANNEL } from "./contact-centre/channel.js";
export type { CentreMessage } from "./contact-centre/channel.js";
export type { Db } from "./store/db.js";
export { openDb } from "./store/open-db.js";
export type { FanOut } from "./fanout/fanout.js";
export { openFanOut } from "./fanout/open-fanout.js";
export { WEBSOCKET_PATH } from "./participant/routes/connection.js";
