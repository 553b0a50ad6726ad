import { ParticipantPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/client.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

describe("CORS of the participant service", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer("pglite");
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  it("answers a preflight allowing the origin, GET/POST/OPTIONS and the SDK's signing headers", async () => {
    for (const path of Object.values(ParticipantPath)) {
      const r = await fetch(server.url + path, {
        method: "OPTIONS",
        headers: {
          origin: "https://shop.example",
          "access-control-request-method": "POST",
          "access-control-request-headers":
            "content-type,x-amz-bearer,x-amz-date,x-amz-user-agent,x-amz-content-sha256,authorization",
        },
      });
      expect(r.status).toBe(204);
      expect(r.headers.get("access-control-allow-origin")).toBe("https://shop.example");
      const methods = r.headers.get("access-control-allow-methods") ?? "";
      for (const m of ["GET", "POST", "OPTIONS"]) expect(methods).toContain(m);
      const allowed = r.headers.get("access-control-allow-headers") ?? "";
      for (const h of [
        "content-type",
        "x-amz-bearer",
        "x-amz-date",
        "authorization",
        "x-amz-content-sha256",
        "x-amz-user-agent",
      ]) {
        expect(allowed).toContain(h);
      }
    }
  });

  it("without a requested header list, allows the SDK's headers anyway", async () => {
    const r = await fetch(server.url + ParticipantPath.SendMessage, {
      method: "OPTIONS",
      headers: { origin: "https://shop.example", "access-control-request-method": "POST" },
    });
    expect(r.headers.get("access-control-allow-headers")).toContain("x-amz-bearer");
  });

  it("exposes x-amzn-RequestId, x-amzn-ErrorType and Date on actual responses, errors included", async () => {
    const r = await call(
      server.url,
      ParticipantPath.SendMessage,
      "nope",
      { ContentType: "text/plain", Content: "x" },
      { headers: { origin: "https://shop.example" } },
    );
    expect(r.status).toBe(403);
    expect(r.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    const exposed = r.headers.get("access-control-expose-headers") ?? "";
    for (const h of ["x-amzn-RequestId", "x-amzn-ErrorType", "Date"]) expect(exposed).toContain(h);
  });

  it("answers Chrome's private-network preflight", async () => {
    const r = await fetch(server.url + ParticipantPath.CreateParticipantConnection, {
      method: "OPTIONS",
      headers: {
        origin: "https://shop.example",
        "access-control-request-method": "POST",
        "access-control-request-private-network": "true",
      },
    });
    expect(r.headers.get("access-control-allow-private-network")).toBe("true");
  });
});
