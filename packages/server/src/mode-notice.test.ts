import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { buildApp } from "./app.js";
import { loadConfig } from "./config.js";

/** The msg of the first JSON line a server built with `env` writes to its log. */
async function firstLogLine(env: Record<string, string>): Promise<{ msg: string; mode: string }> {
  let log = "";
  const stream = new PassThrough();
  stream.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: "memory", ...env });
  const built = await buildApp(config, { logStream: stream, features: false });
  try {
    await expect.poll(() => log.includes("\n")).toBe(true);
    return JSON.parse(log.slice(0, log.indexOf("\n"))) as { msg: string; mode: string };
  } finally {
    await built.close();
  }
}

describe("the first log line", () => {
  it("says demo mode, and that it is not for production, with the default config", async () => {
    const first = await firstLogLine({});
    expect(first.mode).toBe("demo");
    expect(first.msg).toBe(
      "Demo mode: the demo advisor (demo/demo) and the demo shop page, which hands every visitor a signed jwt, are on. Not for production: set NODE_ENV=production (or CONTACT_CENTRE_MODE=production).",
    );
  }, 120_000);

  it("says production mode with CONTACT_CENTRE_MODE=production and a 32+ character WIDGET_JWT_SECRET", async () => {
    const first = await firstLogLine({
      CONTACT_CENTRE_MODE: "production",
      WIDGET_JWT_SECRET: "a-production-secret-of-40-characters-xyz",
    });
    expect(first.mode).toBe("production");
    expect(first.msg).toBe(
      "Production mode: no demo advisor, no demo page; visitor jwts are verified with the configured key.",
    );
  }, 120_000);
});
