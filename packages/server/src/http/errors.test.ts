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

  it("answers any other failure with 500 InternalServerException and no internals", async () => {
    const r = await app.inject({ method: "GET", url: "/bug" });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toMatchObject({ __type: "InternalServerException" });
    expect(r.body).not.toContain("undefined is not a function");
  });
});
