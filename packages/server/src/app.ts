import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import fastifyWebsocket from "@fastify/websocket";
import Fastify, { type FastifyInstance } from "fastify";
import { systemClock, type Clock } from "./clock.js";
import type { ServerConfig } from "./config.js";
import { DbContactCentre } from "./contact-centre/contact-centre.js";
import type { ServerDeps } from "./deps.js";
import { Refusals } from "./http/refusals.js";
import { FrameGuard } from "./participant/frame-guard.js";
import { SocketWrites } from "./participant/socket-writes.js";
import type { FanOut } from "./fanout/fanout.js";
import { openFanOut } from "./fanout/open-fanout.js";
import { FanOutRepairs } from "./fanout/repairs.js";
import type { LimitStore } from "./limits/limit-store.js";
import { openLimitStore } from "./limits/open-limit-store.js";
import { registerFeatures } from "./features.js";
import { healthRoutes } from "./http/health.js";
import { loggerOptions, RequestLog } from "./http/log-redaction.js";
import { securityHeaders } from "./http/security-headers.js";
import { installErrorHandling } from "./http/errors.js";
import { buildValidator } from "./http/validation.js";
import { CallerCache } from "./participant/caller-cache.js";
import { participantService } from "./participant/plugin.js";
import { CLOSE_GOING_AWAY, SHUTDOWN_CLOSE_REASON } from "./participant/socket-hub.js";
import type { Db } from "./store/db.js";
import { openDb } from "./store/open-db.js";
import { loadOrCreateSecret } from "./store/secrets.js";

/** Largest websocket frame a client may send. */
const MAX_FRAME_BYTES = 64 * 1024;

export interface AppOverrides {
  /** A store the caller owns (not closed by `close`). */
  db?: Db;
  /** A fan-out the caller owns (not closed by `close`). */
  fanout?: FanOut;
  /** Time source for every timing rule (token lifetimes, URL expiry, rate limits). */
  clock?: Clock;
  /** false: only the participant service (tests of the core); default true. */
  features?: boolean;
  /** Folder of the contact flow JSON files (default `packages/server/flows`). */
  flowsDir?: string;
  /** Where the log goes (default stdout). */
  logStream?: NodeJS.WritableStream;
}

export interface BuiltApp {
  app: FastifyInstance;
  deps: ServerDeps;
  /** Stops features, closes sockets and the HTTP server, then the fan-out and store it opened. */
  close(): Promise<void>;
  /**
   * The graceful stop (SIGTERM): /readyz answers 503 at once and for DRAIN_DELAY_MS while all
   * else still works; then `close`, whose requests in progress get SHUTDOWN_TIMEOUT_MS to
   * finish before their connections are cut. Websockets are closed with 1001 (going away), so
   * clients reconnect to another process and repair their transcript there.
   */
  shutdown(): Promise<void>;
}

/** The first log line: which mode runs, and what that means. */
export function modeNotice(mode: ServerConfig["mode"]): string {
  return mode === "demo"
    ? "Demo mode: the demo advisor (demo/demo) and the demo shop page, which hands every visitor a signed jwt, are on. Not for production: set NODE_ENV=production (or CONTACT_CENTRE_MODE=production)."
    : "Production mode: no demo advisor, no demo page; visitor jwts are verified with the configured key.";
}

/** The whole contact centre as a Fastify app, not yet listening. */
export async function buildApp(
  config: ServerConfig,
  overrides: AppOverrides = {},
): Promise<BuiltApp> {
  const tls =
    config.tlsCertFile && config.tlsKeyFile
      ? { cert: readFileSync(config.tlsCertFile), key: readFileSync(config.tlsKeyFile) }
      : null;
  // A body that trickles in must not hold a connection (and its buffers) for ever. Node only
  // enforces a request timeout given when the server is created (its headers timeout then
  // follows it), and checks every connectionsCheckingInterval (default 30 s).
  const timeouts = { requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 5_000 };
  const app = Fastify({
    logger: loggerOptions(config.logLevel, overrides.logStream),
    logController: new RequestLog(),
    ...(tls ? { https: { ...tls, ...timeouts } } : { http: timeouts }),
    genReqId: () => randomUUID(),
    // Idle keep-alive connections close with the server; requests in progress are cut by
    // `close` at once and by `shutdown` only after SHUTDOWN_TIMEOUT_MS.
    forceCloseConnections: "idle",
    requestTimeout: config.requestTimeoutMs,
    trustProxy:
      typeof config.trustProxy === "number"
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    schemaController: { compilersFactory: { buildValidator } },
  }) as unknown as FastifyInstance;

  app.log.info({ mode: config.mode }, modeNotice(config.mode));
  const clock = overrides.clock ?? systemClock;
  const db =
    overrides.db ??
    (await openDb({
      databaseUrl: config.databaseUrl,
      preparedStatements: config.preparedStatements,
      dataDir: config.dataDir,
      onVacuumError: (err) => app.log.error({ err }, "vacuum failed"),
    }));
  let fanout: FanOut;
  let limits: LimitStore;
  try {
    fanout =
      overrides.fanout ??
      (await openFanOut(
        config.redisUrl,
        (err) => app.log.error({ err }, "fan-out error"),
        config.redisKeyPrefix,
      ));
  } catch (error) {
    if (!overrides.db) await db.close();
    throw error;
  }
  try {
    limits = await openLimitStore(
      config.redisUrl,
      (err) => app.log.warn({ err }, "limit store unreachable: counting limits in this process"),
      config.redisKeyPrefix,
    );
  } catch (error) {
    if (!overrides.fanout) await fanout.close();
    if (!overrides.db) await db.close();
    throw error;
  }
  if (!config.tokenSecret) config.tokenSecret = await loadOrCreateSecret(db, "token-secret");

  const centre = new DbContactCentre({
    db,
    fanout,
    clock,
    onError: (err) => app.log.error({ err }, "contact centre error"),
  });
  const stopHearing = await centre.hearOtherProcesses();
  const callers = new CallerCache();
  const stopSweepingCallers = callers.startSweeping(() => clock.now());
  const refusals = new Refusals();
  const repairs = new FanOutRepairs();
  const stopCountingResumes = fanout.onResume(() => repairs.interrupted());
  const frames = new FrameGuard(() => db.query("SELECT 1"), clock, refusals);
  const writes = new SocketWrites(refusals);
  const stopPinging = writes.start(config.websocketStallMs);
  const deps: ServerDeps = {
    config,
    db,
    fanout,
    centre,
    limits,
    log: app.log,
    callers,
    refusals,
    repairs,
    frames,
    writes,
  };

  installErrorHandling(app);
  securityHeaders(app, config);
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    // On close every websocket, in a hub or not yet, is told 1001 (going away) and why, so
    // clients reconnect to another process; the plugin's default sends no close code.
    preClose: async function (this: FastifyInstance) {
      for (const client of this.websocketServer.clients) {
        client.close(CLOSE_GOING_AWAY, SHUTDOWN_CLOSE_REASON);
      }
      this.server.removeAllListeners("upgrade");
      this.websocketServer.close();
    },
  });
  let draining = false;
  await app.register(healthRoutes, { db, fanout, draining: () => draining });
  await app.register(participantService, { deps, clock });
  const stopFeatures =
    overrides.features === false
      ? async () => {}
      : await registerFeatures(app, deps, { clock, flowsDir: overrides.flowsDir });

  let closing: Promise<void> | null = null;
  /** Whether closing cuts requests in progress at once (`close`), or lets them finish first. */
  let cutAtClose = true;
  app.addHook("preClose", async () => {
    if (cutAtClose) app.server.closeAllConnections();
  });
  /** Close, cutting the connections of requests still in progress after `graceMs`. */
  const closeWithin = (graceMs: number): Promise<void> => {
    closing ??= (async () => {
      cutAtClose = graceMs === 0;
      const cut = cutAtClose
        ? undefined
        : setTimeout(() => {
            app.log.warn(
              `requests still in progress after SHUTDOWN_TIMEOUT_MS (${graceMs} ms): closing their connections`,
            );
            app.server.closeAllConnections();
            // Websockets are not HTTP connections: one whose client does not answer the close
            // frame would hold the server open for ws's own 30 s close timeout.
            for (const client of app.websocketServer.clients) client.terminate();
          }, graceMs);
      // Refuse new connections before the websockets are closed: a client told 1001 then
      // reconnects through the load balancer to another process at once, never to this one
      // (which would accept, then reset it). Fastify's own close of the server follows.
      if (app.server.listening) app.server.close();
      try {
        await stopFeatures();
        await app.close();
      } finally {
        clearTimeout(cut);
      }
      await centre.idle();
      await stopSweepingCallers();
      await stopPinging();
      await stopHearing();
      stopCountingResumes();
      if (!overrides.fanout) await fanout.close();
      await limits.close();
      if (!overrides.db) await db.close();
    })();
    return closing;
  };
  const close = () => closeWithin(0);
  const shutdown = async (): Promise<void> => {
    draining = true;
    if (config.drainDelayMs > 0) await delay(config.drainDelayMs);
    await closeWithin(config.shutdownTimeoutMs);
  };
  return { app, deps, close, shutdown };
}

/**
 * Listen on the configured host and port; when no PUBLIC_URL was configured (port 0 in
 * tests), the public URL becomes the loopback address actually bound. Returns it.
 */
export async function listen(built: BuiltApp): Promise<string> {
  const { app, deps } = built;
  const config = deps.config;
  await app.listen({ port: config.port, host: config.host });
  if (!config.publicUrl) {
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    const scheme = config.tlsCertFile ? "https" : "http";
    config.publicUrl = `${scheme}://127.0.0.1:${port}`;
    if (config.allowedOrigins.length === 0) config.allowedOrigins = [config.publicUrl];
  }
  return config.publicUrl;
}
