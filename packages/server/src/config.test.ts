import { describe, expect, it } from "vitest";
import { loadConfig, MIN_PRODUCTION_SECRET } from "./config.js";
import { DEMO_JWT_SECRET } from "./demo/demo-jwt.js";

describe("the mode (issue 10)", () => {
  const secret = "s".repeat(MIN_PRODUCTION_SECRET);
  it("is demo by default, with the demo secret as the visitor jwt key; production with NODE_ENV=production", () => {
    expect(loadConfig({})).toMatchObject({ mode: "demo", widgetJwtSecret: DEMO_JWT_SECRET });
    expect(loadConfig({ NODE_ENV: "production", WIDGET_JWT_SECRET: secret }).mode).toBe(
      "production",
    );
    expect(loadConfig({ NODE_ENV: "production", CONTACT_CENTRE_MODE: "demo" }).mode).toBe("demo");
    expect(() => loadConfig({ CONTACT_CENTRE_MODE: "prod" })).toThrow(
      'CONTACT_CENTRE_MODE must be demo or production, got "prod"',
    );
  });

  it("production refuses no key, the demo secret and a short secret; a public key or JWKS URL will do", () => {
    const production = { CONTACT_CENTRE_MODE: "production" };
    expect(() => loadConfig(production)).toThrow("Production mode needs the visitor jwt's key");
    for (const weak of [DEMO_JWT_SECRET, "s".repeat(MIN_PRODUCTION_SECRET - 1)]) {
      expect(() => loadConfig({ ...production, WIDGET_JWT_SECRET: weak })).toThrow(
        `WIDGET_JWT_SECRET must be a secret of at least ${MIN_PRODUCTION_SECRET} characters`,
      );
    }
    const jwks = loadConfig({ ...production, WIDGET_JWT_JWKS_URL: "https://shop.example/jwks" });
    expect(jwks).toMatchObject({
      widgetJwtSecret: undefined,
      widgetJwtJwksUrl: "https://shop.example/jwks",
    });
  });
});

describe("loadConfig", () => {
  it("defaults to port 8080, the embedded store under ./data, in-process fan-out and a public URL of http://127.0.0.1:8080", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      publicUrl: "http://127.0.0.1:8080",
      dataDir: "./data",
      databaseUrl: undefined,
      preparedStatements: true,
      redisUrl: undefined,
      tokenSecret: "",
      snippetIds: ["demo-snippet"],
      allowedOrigins: ["http://127.0.0.1:8080"],
      logLevel: "info",
      rateLimitBurst: 40,
      rateLimitPerSecond: 10,
    });
  });

  it("derives https://127.0.0.1:<port> from TLS files and keeps a configured PUBLIC_URL without its trailing slash", () => {
    expect(
      loadConfig({ PORT: "9443", TLS_CERT_FILE: "c.pem", TLS_KEY_FILE: "k.pem" }).publicUrl,
    ).toBe("https://127.0.0.1:9443");
    expect(loadConfig({ PUBLIC_URL: "https://chat.example.com/cc/" }).publicUrl).toBe(
      "https://chat.example.com/cc",
    );
  });

  it("leaves the public URL empty with PORT=0 until the server listens", () => {
    expect(loadConfig({ PORT: "0" }).publicUrl).toBe("");
  });

  it("reads lists and services from the environment", () => {
    const c = loadConfig({
      DATABASE_URL: "postgres://db/x",
      DATABASE_PREPARED_STATEMENTS: "off",
      REDIS_URL: "redis://r:6379",
      REDIS_KEY_PREFIX: "shop-eu:",
      SNIPPET_IDS: "a, b,,c",
      ALLOWED_ORIGINS: "https://shop.example",
      TOKEN_SECRET: "s3cret",
      RATE_LIMIT_BURST: "5",
      RATE_LIMIT_PER_SECOND: "0.5",
    });
    expect(c).toMatchObject({
      databaseUrl: "postgres://db/x",
      preparedStatements: false,
      redisUrl: "redis://r:6379",
      redisKeyPrefix: "shop-eu:",
      snippetIds: ["a", "b", "c"],
      allowedOrigins: ["https://shop.example"],
      tokenSecret: "s3cret",
      rateLimitBurst: 5,
      rateLimitPerSecond: 0.5,
    });
  });

  it("refuses invalid values with a message naming the variable", () => {
    expect(() => loadConfig({ PORT: "http" })).toThrow(/PORT/);
    expect(loadConfig({}).redisKeyPrefix).toBe("");
    expect(() => loadConfig({ REDIS_KEY_PREFIX: "shop eu" })).toThrow(/REDIS_KEY_PREFIX/);
    expect(() => loadConfig({ REDIS_KEY_PREFIX: "x".repeat(65) })).toThrow(/REDIS_KEY_PREFIX/);
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => loadConfig({ PUBLIC_URL: "ftp://x" })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ TLS_CERT_FILE: "c.pem" })).toThrow(/TLS_KEY_FILE/);
    expect(() => loadConfig({ RATE_LIMIT_PER_SECOND: "-1" })).toThrow(/RATE_LIMIT_PER_SECOND/);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: "no" })).toThrow(
      /DATABASE_PREPARED_STATEMENTS must be on or off/,
    );
    expect(() => loadConfig({ INSTANCE_START_CHAT_PER_SECOND: "0" })).toThrow(
      /INSTANCE_START_CHAT_PER_SECOND/,
    );
    expect(() => loadConfig({ INSTANCE_START_CHAT_BURST: "many" })).toThrow(
      /INSTANCE_START_CHAT_BURST/,
    );
  });

  it("sizes the per-instance start-chat limit above the measured set-up rate; both can be set", () => {
    for (const env of [{}, { DATABASE_URL: "postgres://db/x" }]) {
      expect(loadConfig(env)).toMatchObject({
        instanceStartChatBurst: 2000,
        instanceStartChatPerSecond: 2000,
      });
    }
    expect(
      loadConfig({ INSTANCE_START_CHAT_BURST: "3", INSTANCE_START_CHAT_PER_SECOND: "20" }),
    ).toMatchObject({ instanceStartChatBurst: 3, instanceStartChatPerSecond: 20 });
  });
});
