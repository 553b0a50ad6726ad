import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { installErrorHandling } from "./errors.js";

describe("installErrorHandling", () => {
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  app.get("/store-refuses", async () => {
    // What pg and PGlite throw for a value the database cannot take (class 22, data exception).
    throw Object.assign(new Error('date/time field value out of range: "0000-12-31"'), {
      code: "22008",
    });
  });
  // Errors as Fastify and its plugins raise them: a plain Error carrying a statusCode.
  const fastifyError = (statusCode: number, message: string) =>
    Object.assign(new Error(message), { statusCode });
  app.get("/forbidden", async () => {
    throw fastifyError(403, "Not yours");
  });
  app.get("/too-many", async () => {
    throw fastifyError(429, "Slow down");
  });
  app.get("/too-many-with-headers", async () => {
    throw Object.assign(fastifyError(429, "Slow down"), {
      headers: { "retry-after": "7", "content-type": "text/html", "set-cookie": "a=b" },
    });
  });
  app.get("/missing", async () => {
    throw fastifyError(404, "No such thing");
  });
  app.get("/bug", async () => {
    throw new TypeError("undefined is not a function");
  });
  afterAll(() => app.close());

  it("answers a store 'data exception' (SQLSTATE class 22) with 400 ValidationException, not 500", async () => {
    const r = await app.inject({ method: "GET", url: "/store-refuses" });
    expect(r.statusCode).toBe(400);
    expect(r.headers["x-amzn-errortype"]).toBe("ValidationException");
    expect(r.json()).toMatchObject({ __type: "ValidationException" });
  });

  it("keeps the headers an error was raised with (a plugin's Retry-After), in the AWS shape", async () => {
    const r = await app.inject({ method: "GET", url: "/too-many-with-headers" });
    expect(r.statusCode).toBe(429);
    expect(r.headers["retry-after"]).toBe("7");
    expect(r.headers["x-amzn-errortype"]).toBe("ThrottlingException");
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.headers["set-cookie"]).toBeUndefined();
    expect((await app.inject({ method: "GET", url: "/too-many" })).headers["retry-after"]).toBe(
      undefined,
    );
  });

  it("answers any other failure with 500 InternalServerException and no internals", async () => {
    const r = await app.inject({ method: "GET", url: "/bug" });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toMatchObject({ __type: "InternalServerException" });
    expect(r.body).not.toContain("undefined is not a function");
  });

  it("maps a Fastify error's 403 to AccessDeniedException and 429 to ThrottlingException, message kept", async () => {
    const denied = await app.inject({ method: "GET", url: "/forbidden" });
    expect(denied.statusCode).toBe(403);
    expect(denied.headers["x-amzn-errortype"]).toBe("AccessDeniedException");
    expect(denied.json()).toEqual({ __type: "AccessDeniedException", message: "Not yours" });
    const throttled = await app.inject({ method: "GET", url: "/too-many" });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers["x-amzn-errortype"]).toBe("ThrottlingException");
    expect(throttled.json()).toEqual({ __type: "ThrottlingException", message: "Slow down" });
  });

  it("maps a Fastify error's 404 to ResourceNotFoundException; a path with no route is UnknownOperationException", async () => {
    const missing = await app.inject({ method: "GET", url: "/missing" });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["x-amzn-errortype"]).toBe("ResourceNotFoundException");
    expect(missing.json()).toEqual({
      __type: "ResourceNotFoundException",
      message: "No such thing",
    });
    const noRoute = await app.inject({ method: "GET", url: "/nowhere?x=1" });
    expect(noRoute.statusCode).toBe(404);
    expect(noRoute.headers["x-amzn-errortype"]).toBe("UnknownOperationException");
    expect(noRoute.json()).toEqual({
      __type: "UnknownOperationException",
      message: "No route for GET /nowhere",
    });
  });
});
