/**
 * What the lazily loaded `chat-telemetry.js` hands the widget: the chat client's
 * `createTelemetry` and `attachSessionMetrics`, registered on `window.__chatWidgetTelemetry`.
 * Type-only imports: nothing of the telemetry code lands in `chat-widget.js`.
 */
import type { attachSessionMetrics, createTelemetry } from "@chat-widget/chat-client";

export interface TelemetryModule {
  createTelemetry: typeof createTelemetry;
  attachSessionMetrics: typeof attachSessionMetrics;
}

/** The global the telemetry script registers itself on. */
export const TELEMETRY_GLOBAL = "__chatWidgetTelemetry";
/** The functions a registered telemetry global must have (anything else there is not ours). */
export const TELEMETRY_FUNCTIONS = ["createTelemetry", "attachSessionMetrics"];
/** The telemetry script's file name, beside `chat-widget.js`. */
export const TELEMETRY_SCRIPT = "chat-telemetry.js";

export type TelemetryHost = { [TELEMETRY_GLOBAL]?: TelemetryModule };
