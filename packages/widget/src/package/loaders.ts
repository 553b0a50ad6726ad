/**
 * The package's rare views and telemetry, as modules: the consumer's bundler splits them off,
 * and they load when the widget first wants them (once a chat exists).
 */
import type { Loaders } from "../browser-deps.js";
import { consoleLogger } from "../logger.js";

const warnNull = (what: string) => (error: unknown) => {
  consoleLogger.warn(`The ${what} could not be loaded`, error);
  return null;
};

export const moduleLoaders: Loaders = {
  views: () => import("../lazy-views/entry.js").catch(warnNull("widget's views")),
  telemetry: () =>
    import("@chat-widget/chat-client").then(
      ({ createTelemetry, attachSessionMetrics }) => ({ createTelemetry, attachSessionMetrics }),
      warnNull("telemetry"),
    ),
};
