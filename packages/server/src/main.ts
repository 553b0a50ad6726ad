import { buildApp, listen } from "./app.js";
import { loadConfig } from "./config.js";

/** Beyond DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS, what closing the store and fan-out may take. */
const EXIT_MARGIN_MS = 500;

/** `npm start`: the contact centre on PORT (8080), with the embedded store unless DATABASE_URL is set. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const built = await buildApp(config);
  const url = await listen(built);
  const log = built.app.log;
  log.info(
    {
      store: config.databaseUrl ? "postgresql" : `pglite (${config.dataDir})`,
      fanout: config.redisUrl ? "redis" : "in-process",
    },
    config.mode === "demo"
      ? `Contact centre ready: demo shop ${url}/ · agent console ${url}/agent · participant service ${url}/participant`
      : `Contact centre ready: widget ${url}/widget/chat-widget.js · agent console ${url}/agent · participant service ${url}/participant`,
  );
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    // Gone within DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS and a margin, whatever holds it (a
    // request stuck on a lock in the store, a socket that never closes): a deploy waits on it.
    const deadlineMs = config.drainDelayMs + config.shutdownTimeoutMs + EXIT_MARGIN_MS;
    setTimeout(() => {
      log.error(`still shutting down ${deadlineMs} ms after ${signal}: exiting now`);
      process.exit(1);
    }, deadlineMs).unref();
    built.shutdown().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err: unknown) => {
  console.error("The contact centre could not start:", err);
  process.exit(1);
});
