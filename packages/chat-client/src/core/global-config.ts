/**
 * `ChatSession.setGlobalConfig(...)`: region, endpoint override, features (message receipts
 * and their throttle time), reconnect, and the logger configuration.
 */
import { LogManager, type LoggerConfig } from "./logger.js";

export const DEFAULT_REGION = "us-west-2";
export const DEFAULT_STAGE = "prod";
export const DEFAULT_CELL = "1";
/** Receipt throttle default (docs/product.md §9). */
export const DEFAULT_RECEIPT_THROTTLE_MS = 5000;

export interface MessageReceiptsFeature {
  shouldSendMessageReceipts?: boolean;
  throttleTime?: number;
}

export interface GlobalConfigInput {
  region?: string;
  /** Base URL of the participant service; a path prefix is kept. */
  endpoint?: string;
  stage?: string;
  cell?: string;
  reconnect?: boolean;
  features?: { messageReceipts?: MessageReceiptsFeature };
  /** Shorthand for `features.messageReceipts.throttleTime`. */
  throttleTime?: number;
  loggerConfig?: LoggerConfig;
}

export class GlobalConfig {
  region: string | undefined;
  regionOverride: string | undefined;
  endpoint: string | undefined;
  stage = DEFAULT_STAGE;
  cell = DEFAULT_CELL;
  reconnect = true;
  messageReceipts = true;
  throttleTime = DEFAULT_RECEIPT_THROTTLE_MS;
  readonly logManager = new LogManager();

  update(input: GlobalConfigInput = {}): void {
    if (input.region !== undefined) this.region = input.region;
    // The endpoint override cannot be cleared by a later call without it (docs/protocol.md §2.1).
    if (input.endpoint !== undefined) this.endpoint = input.endpoint;
    if (input.stage !== undefined) this.stage = input.stage;
    if (input.cell !== undefined) this.cell = input.cell;
    if (input.reconnect !== undefined) this.reconnect = input.reconnect;
    const receipts = input.features?.messageReceipts;
    if (receipts?.shouldSendMessageReceipts !== undefined) {
      this.messageReceipts = receipts.shouldSendMessageReceipts;
    }
    // Each call without a throttle time resets it to the default (docs/protocol.md §4.2).
    this.throttleTime = receipts?.throttleTime ?? input.throttleTime ?? DEFAULT_RECEIPT_THROTTLE_MS;
    if (input.loggerConfig !== undefined) this.logManager.updateLoggerConfig(input.loggerConfig);
  }

  /** Region precedence: override, then the session's option, then the global value, then us-west-2. */
  resolveRegion(sessionRegion?: string): string | undefined {
    if (this.regionOverride !== undefined) return this.regionOverride;
    if (sessionRegion !== undefined) return sessionRegion;
    return this.region === undefined ? DEFAULT_REGION : this.region;
  }
}

/** The page-wide configuration, as chatjs's `connect.ChatSession.setGlobalConfig` has it. */
export const globalConfig = new GlobalConfig();
