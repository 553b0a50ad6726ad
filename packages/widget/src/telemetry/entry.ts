/**
 * Entry of the second build, `dist/chat-telemetry.js`: the chat client's telemetry, loaded by
 * the widget only once a chat session exists, so the visitor's page never waits for it.
 */
import { attachSessionMetrics, createTelemetry } from "@chat-widget/chat-client";
import { TELEMETRY_GLOBAL } from "./contract.js";
import type { TelemetryHost } from "./contract.js";

(globalThis as TelemetryHost)[TELEMETRY_GLOBAL] ??= { createTelemetry, attachSessionMetrics };
