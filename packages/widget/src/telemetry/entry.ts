/**
 * Entry of the second build, `dist/chat-telemetry.js`: the chat client's telemetry, loaded by
 * the widget only once a chat session exists, so the visitor's page never waits for it.
 */
import { attachSessionMetrics, createTelemetry } from "@chat-widget/chat-client";
import { hasFunctions } from "../script-global.js";
import { TELEMETRY_FUNCTIONS, TELEMETRY_GLOBAL } from "./contract.js";
import type { TelemetryHost } from "./contract.js";

// A first copy's module stays; a page element with the global's id (DOM clobbering) does not.
const host = globalThis as TelemetryHost;
if (!hasFunctions(host[TELEMETRY_GLOBAL], TELEMETRY_FUNCTIONS))
  host[TELEMETRY_GLOBAL] = { createTelemetry, attachSessionMetrics };
