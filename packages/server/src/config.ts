import { DemoIds } from "@chat-widget/protocol";
import { DEMO_JWT_SECRET } from "./demo/demo-jwt.js";

/**
 * demo: the demo advisor (demo/demo) and the demo shop page minting visitor jwts are on, and
 * the visitor jwt key defaults to the demo secret. production: none of that; a visitor jwt key
 * must be configured.
 */
export type Mode = "demo" | "production";

/** Server configuration from environment variables, each with a safe default (README lists them). */
export interface ServerConfig {
  /** CONTACT_CENTRE_MODE (demo | production); default production when NODE_ENV=production, else demo. */
  mode: Mode;
  /** PORT, default 8080. */
  port: number;
  /** HOST, default 0.0.0.0. */
  host: string;
  /** PUBLIC_URL: origin the server hands out in websocket and attachment URLs; default http://127.0.0.1:<port>. */
  publicUrl: string;
  /** DATA_DIR for the embedded PGlite store, default ./data; "memory" keeps it in memory. */
  dataDir: string;
  /** DATABASE_URL: use PostgreSQL instead of PGlite. */
  databaseUrl: string | undefined;
  /**
   * DATABASE_PREPARED_STATEMENTS (on | off), default on: PostgreSQL keeps each statement parsed
   * on each connection; off behind a pooler in transaction mode that cannot (PgBouncer < 1.21).
   */
  preparedStatements: boolean;
  /** REDIS_URL: fan out through Redis pub/sub instead of in-process. */
  redisUrl: string | undefined;
  /**
   * REDIS_KEY_PREFIX, default none: put before every Redis key and channel name, so several
   * deployments (or test files) share one Redis without hearing each other.
   */
  redisKeyPrefix: string;
  /**
   * TOKEN_SECRET signs attachment URLs and other server-issued values. When unset (""), the
   * server generates one and keeps it in the database, so every process on that database
   * and every restart share it.
   */
  tokenSecret: string;
  /**
   * The visitor jwt's key, exactly one: WIDGET_JWT_SECRET (HS256), WIDGET_JWT_PUBLIC_KEY (PEM,
   * RS256 or ES256) or WIDGET_JWT_JWKS_URL. With none set, the demo secret the demo page signs
   * with (demo only: anyone can sign with it).
   */
  widgetJwtSecret: string | undefined;
  widgetJwtPublicKey: string | undefined;
  widgetJwtJwksUrl: string | undefined;
  /** TLS_CERT_FILE and TLS_KEY_FILE: serve HTTPS/WSS. */
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  /** ALLOWED_ORIGINS: comma-separated origins allowed to use the widget service and gateway; default: the public URL's origin (the gateway also admits its own origin, and loopback origins from a loopback peer). */
  allowedOrigins: string[];
  /** START_CHAT_ATTRIBUTES: comma-separated attribute keys an integrator's start-chat may set; default none. */
  startChatAttributes: string[];
  /** SNIPPET_IDS: comma-separated registered snippet ids; default demo-snippet. */
  snippetIds: string[];
  /**
   * TRUST_PROXY: the reverse proxies in front (a hop count, or comma-separated addresses, CIDRs
   * or `loopback`), whose X-Forwarded-For names the client; default none (the peer is the client).
   */
  trustProxy: number | string | false;
  /** REQUEST_TIMEOUT_MS: a request (headers and body) must arrive within this, default 300000 (a 20 MB upload on a slow link). */
  requestTimeoutMs: number;
  /**
   * UPLOAD_MIN_BYTES_PER_SECOND: after its first 10 s an attachment upload must average at
   * least this, or it is refused (400) and its upload slot freed; default 8192, 0 turns it off.
   */
  uploadMinBytesPerSecond: number;
  /**
   * TELEMETRY_RETENTION_DAYS: telemetry rows received longer ago are deleted, and series that
   * received nothing in that long leave /metrics (and stop counting against the series cap);
   * default 7.
   */
  telemetryRetentionDays: number;
  /**
   * CONTINUE_CHAT_MAX_AGE_DAYS: a persistent chat continues an earlier chat only if it ended
   * within this many days; default 30.
   */
  continueChatMaxAgeDays: number;
  /**
   * DRAIN_DELAY_MS: on SIGTERM, how long /readyz answers 503 while everything still works,
   * so a load balancer stops sending new clients before the process stops listening; default 0.
   */
  drainDelayMs: number;
  /**
   * SHUTDOWN_TIMEOUT_MS: after that, how long requests in progress may take to finish before
   * their connections are cut; default 10000.
   */
  shutdownTimeoutMs: number;
  /** ADMIN_TOKEN: the admin API's bearer credential (32+ characters); unset: no admin API. */
  adminToken: string | undefined;
  /** METRICS_TOKEN: when set (32+ characters), /metrics needs it (or an advisor's token). */
  metricsToken: string | undefined;
  /** LOG_LEVEL, default info. */
  logLevel: string;
  /** START_CHAT_BURST and START_CHAT_PER_MINUTE: chats one client address may start at once, then per minute; default 20 and 20. */
  startChatBurst: number;
  startChatPerMinute: number;
  /**
   * INSTANCE_START_CHAT_BURST and INSTANCE_START_CHAT_PER_SECOND: chats all clients together may
   * start on one instance at once, then per second (429 beyond); default 2000 and 2000, above
   * the set-up rate one server core sustains on either store (bench/load.mjs --full on a 2-core
   * machine, its fastest hour, session 37: PGlite 1,028 chats/s, PostgreSQL 1,498); raise them
   * for a bigger machine or several processes.
   */
  instanceStartChatBurst: number;
  instanceStartChatPerSecond: number;
  /** ATTACHMENTS: "off" turns attachments off (start-chat's featurePermissions say so); default on. */
  attachmentsEnabled: boolean;
  /**
   * VISITOR_PAGE_QUERY: "on" keeps the query and fragment of the page URLs the widget reports for
   * the advisor's visitor panel (issue 60); default off: they are stripped (they may hold tokens).
   */
  visitorPageQuery: boolean;
  /** WEBSOCKETS_PER_ADDRESS: participant websockets one client address may hold open, default 200. */
  websocketsPerAddress: number;
  /**
   * WEBSOCKET_STALL_MS: every websocket is pinged this often, and one that did not answer the
   * previous ping (its client stopped reading) is closed; default 30000.
   */
  websocketStallMs: number;
  /** RATE_LIMIT_BURST: requests a participant may make at once, default 40. */
  rateLimitBurst: number;
  /** RATE_LIMIT_PER_SECOND: sustained requests per second per participant, default 10. */
  rateLimitPerSecond: number;
}

type Env = Record<string, string | undefined>;

function mode(env: Env): Mode {
  const raw = text(env, "CONTACT_CENTRE_MODE");
  if (raw === undefined) return env.NODE_ENV === "production" ? "production" : "demo";
  if (raw !== "demo" && raw !== "production")
    throw new Error(`CONTACT_CENTRE_MODE must be demo or production, got "${raw}"`);
  return raw;
}

/** A bearer credential from the environment: unset, or at least MIN_PRODUCTION_SECRET characters. */
function credential(env: Env, name: string): string | undefined {
  const token = text(env, name);
  if (token !== undefined && token.length < MIN_PRODUCTION_SECRET)
    throw new Error(`${name} must be at least ${MIN_PRODUCTION_SECRET} characters`);
  return token;
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (raw !== "on" && raw !== "off") throw new Error(`${name} must be on or off, got "${raw}"`);
  return raw === "on";
}

function trustProxy(env: Env): number | string | false {
  const raw = text(env, "TRUST_PROXY");
  if (raw === undefined) return false;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

/** An HS256 secret shorter than this is guessable offline from one visitor jwt. */
export const MIN_PRODUCTION_SECRET = 32;

function visitorJwtKey(env: Env, mode: Mode) {
  const widgetJwtSecret = text(env, "WIDGET_JWT_SECRET");
  const widgetJwtPublicKey = text(env, "WIDGET_JWT_PUBLIC_KEY");
  const widgetJwtJwksUrl = text(env, "WIDGET_JWT_JWKS_URL");
  const configured = [widgetJwtSecret, widgetJwtPublicKey, widgetJwtJwksUrl].some(
    (v) => v !== undefined,
  );
  if (mode === "production") {
    if (!configured) {
      throw new Error(
        "Production mode needs the visitor jwt's key: set WIDGET_JWT_SECRET, WIDGET_JWT_PUBLIC_KEY or WIDGET_JWT_JWKS_URL",
      );
    }
    if (
      widgetJwtSecret !== undefined &&
      (widgetJwtSecret === DEMO_JWT_SECRET || widgetJwtSecret.length < MIN_PRODUCTION_SECRET)
    ) {
      throw new Error(
        `In production mode WIDGET_JWT_SECRET must be a secret of at least ${MIN_PRODUCTION_SECRET} characters (not the demo's)`,
      );
    }
  }
  return {
    widgetJwtSecret: widgetJwtSecret ?? (configured ? undefined : DEMO_JWT_SECRET),
    widgetJwtPublicKey,
    widgetJwtJwksUrl,
  };
}

/** At most 64 printable ASCII characters without spaces (what every Redis client passes as is). */
function redisKeyPrefix(env: Env): string {
  const prefix = text(env, "REDIS_KEY_PREFIX") ?? "";
  if (!/^[\x21-\x7e]{0,64}$/.test(prefix)) {
    throw new Error("REDIS_KEY_PREFIX must be at most 64 printable ASCII characters, no spaces");
  }
  return prefix;
}

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function positive(env: Env, name: string, fallback: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number, got "${raw}"`);
  }
  return value;
}

function list(env: Env, name: string): string[] | undefined {
  const raw = text(env, name);
  return raw
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function publicUrl(env: Env, port: number, tls: boolean): string {
  const raw = text(env, "PUBLIC_URL");
  if (raw === undefined) return port === 0 ? "" : `${tls ? "https" : "http"}://127.0.0.1:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`PUBLIC_URL must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`PUBLIC_URL must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

/**
 * The server configuration from environment variables, each with a safe default.
 * With PORT=0 (tests) and no PUBLIC_URL, `publicUrl` is "" until `listen` fills it in.
 */
/** Where the store is: DATABASE_URL (PostgreSQL), else PGlite in DATA_DIR (default ./data). */
export function storeConfig(
  env: Env,
): Pick<ServerConfig, "databaseUrl" | "dataDir" | "preparedStatements"> {
  return {
    databaseUrl: text(env, "DATABASE_URL"),
    dataDir: text(env, "DATA_DIR") ?? "./data",
    preparedStatements: onOff(env, "DATABASE_PREPARED_STATEMENTS", true),
  };
}

/** The per-instance start-chat limit (see ServerConfig). */
function instanceStartChatLimit(
  env: Env,
): Pick<ServerConfig, "instanceStartChatBurst" | "instanceStartChatPerSecond"> {
  return {
    instanceStartChatBurst: integer(env, "INSTANCE_START_CHAT_BURST", 2000, 1, 1_000_000),
    instanceStartChatPerSecond: integer(env, "INSTANCE_START_CHAT_PER_SECOND", 2000, 1, 1_000_000),
  };
}

export function loadConfig(env: Env = process.env): ServerConfig {
  const port = integer(env, "PORT", 8080, 0, 65535);
  const tlsCertFile = text(env, "TLS_CERT_FILE");
  const tlsKeyFile = text(env, "TLS_KEY_FILE");
  if ((tlsCertFile === undefined) !== (tlsKeyFile === undefined)) {
    throw new Error("TLS_CERT_FILE and TLS_KEY_FILE must be set together");
  }
  const url = publicUrl(env, port, tlsCertFile !== undefined);
  const chosenMode = mode(env);
  return {
    mode: chosenMode,
    port,
    host: text(env, "HOST") ?? "0.0.0.0",
    publicUrl: url,
    ...storeConfig(env),
    redisUrl: text(env, "REDIS_URL"),
    redisKeyPrefix: redisKeyPrefix(env),
    tokenSecret: text(env, "TOKEN_SECRET") ?? "",
    ...visitorJwtKey(env, chosenMode),
    tlsCertFile,
    tlsKeyFile,
    allowedOrigins: list(env, "ALLOWED_ORIGINS") ?? (url ? [new URL(url).origin] : []),
    snippetIds: list(env, "SNIPPET_IDS") ?? [DemoIds.SNIPPET_ID],
    startChatAttributes: list(env, "START_CHAT_ATTRIBUTES") ?? [],
    logLevel: text(env, "LOG_LEVEL") ?? "info",
    rateLimitBurst: integer(env, "RATE_LIMIT_BURST", 40, 1, 1_000_000),
    websocketsPerAddress: integer(env, "WEBSOCKETS_PER_ADDRESS", 200, 1, 1_000_000),
    websocketStallMs: integer(env, "WEBSOCKET_STALL_MS", 30_000, 100, 3_600_000),
    attachmentsEnabled: onOff(env, "ATTACHMENTS", true),
    visitorPageQuery: onOff(env, "VISITOR_PAGE_QUERY", false),
    startChatBurst: integer(env, "START_CHAT_BURST", 20, 1, 1_000_000),
    startChatPerMinute: integer(env, "START_CHAT_PER_MINUTE", 20, 1, 60_000_000),
    ...instanceStartChatLimit(env),
    rateLimitPerSecond: positive(env, "RATE_LIMIT_PER_SECOND", 10),
    trustProxy: trustProxy(env),
    adminToken: credential(env, "ADMIN_TOKEN"),
    metricsToken: credential(env, "METRICS_TOKEN"),
    requestTimeoutMs: integer(env, "REQUEST_TIMEOUT_MS", 300_000, 1_000, 3_600_000),
    uploadMinBytesPerSecond: integer(env, "UPLOAD_MIN_BYTES_PER_SECOND", 8192, 0, 1_000_000_000),
    telemetryRetentionDays: integer(env, "TELEMETRY_RETENTION_DAYS", 7, 1, 3650),
    continueChatMaxAgeDays: integer(env, "CONTINUE_CHAT_MAX_AGE_DAYS", 30, 1, 3650),
    drainDelayMs: integer(env, "DRAIN_DELAY_MS", 0, 0, 600_000),
    shutdownTimeoutMs: integer(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 0, 600_000),
  };
}
