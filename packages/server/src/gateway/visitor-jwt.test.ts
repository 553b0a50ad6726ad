import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signJwt } from "./jwt.js";
import { visitorJwtVerifier } from "./visitor-jwt.js";

const NOW = Date.parse("2026-11-24T12:00:00Z");
const none = {
  widgetJwtSecret: undefined,
  widgetJwtPublicKey: undefined,
  widgetJwtJwksUrl: undefined,
};

const sign = (alg: string, key: CryptoKey | Uint8Array, claims: Record<string, unknown> = {}) =>
  new SignJWT({ attributes: { orderNumber: "A-1" }, ...claims })
    .setProtectedHeader({ alg, kid: "k1" })
    .sign(key);

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: { type?: string; message: string }) => `${e.type}: ${e.message}`,
  );

describe("the visitor jwt key (issue 10)", () => {
  it("exactly one of secret, public key and JWKS URL; a key that cannot work stops the start", () => {
    expect(() => visitorJwtVerifier(none)).toThrow("Set exactly one of WIDGET_JWT_SECRET");
    expect(() =>
      visitorJwtVerifier({ ...none, widgetJwtSecret: "s", widgetJwtJwksUrl: "https://x/jwks" }),
    ).toThrow("Set exactly one");
    expect(() => visitorJwtVerifier({ ...none, widgetJwtPublicKey: "not a pem" })).toThrow(
      "WIDGET_JWT_PUBLIC_KEY is not a PEM public key",
    );
    expect(() => visitorJwtVerifier({ ...none, widgetJwtJwksUrl: "no url" })).toThrow(
      "WIDGET_JWT_JWKS_URL is not a URL",
    );
  });

  it("HS256 with the secret; exp and nbf against the given clock", async () => {
    const v = visitorJwtVerifier({ ...none, widgetJwtSecret: "shop-secret" });
    expect(v.algorithms).toEqual(["HS256"]);
    const payload = await v.verify(signJwt({ attributes: { a: "1" } }, "shop-secret"), NOW);
    expect(payload.attributes).toEqual({ a: "1" });
    const at = NOW / 1000;
    expect(await refusal(v.verify(signJwt({ exp: at }, "shop-secret"), NOW))).toBe(
      "AccessDeniedException: The jwt has expired",
    );
    expect(await refusal(v.verify(signJwt({ nbf: at + 1 }, "shop-secret"), NOW))).toBe(
      "AccessDeniedException: The jwt is not valid yet",
    );
    expect(await refusal(v.verify("a.b", NOW))).toBe(
      "ValidationException: The jwt is not a valid signed jwt",
    );
  });

  it("RS256 with a PEM public key; no other algorithm, not even HS256 keyed with the PEM itself", async () => {
    const { publicKey, privateKey } = await generateKeyPair("RS256");
    const pem = await exportSPKI(publicKey);
    const v = visitorJwtVerifier({ ...none, widgetJwtPublicKey: pem });
    expect(v.algorithms).toEqual(["RS256"]);
    expect((await v.verify(await sign("RS256", privateKey), NOW)).attributes).toEqual({
      orderNumber: "A-1",
    });
    // The classic confusion: an HS256 token whose secret is the (public) PEM.
    expect(await refusal(v.verify(signJwt({}, pem), NOW))).toBe(
      "AccessDeniedException: The jwt must be signed with RS256",
    );
    const other = await generateKeyPair("RS256");
    expect(await refusal(v.verify(await sign("RS256", other.privateKey), NOW))).toBe(
      "AccessDeniedException: The jwt's signature is not valid",
    );
    // A PEM given on one line with \n escapes (as environment variables often carry it).
    const oneLine = visitorJwtVerifier({ ...none, widgetJwtPublicKey: pem.replace(/\n/g, "\\n") });
    expect((await oneLine.verify(await sign("RS256", privateKey), NOW)).attributes).toBeTruthy();
  });

  describe("a JWKS URL", () => {
    let server: Server;
    let url: string;
    let keys: { publicKey: CryptoKey; privateKey: CryptoKey };
    beforeAll(async () => {
      keys = await generateKeyPair("ES256");
      const jwk = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "ES256" };
      server = createServer((_req, res) => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ keys: [jwk] }));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("ES256 with a key from the JWKS; a token whose kid the JWKS lacks is refused", async () => {
      const v = visitorJwtVerifier({ ...none, widgetJwtJwksUrl: url });
      expect((await v.verify(await sign("ES256", keys.privateKey), NOW)).attributes).toEqual({
        orderNumber: "A-1",
      });
      const stranger = await new SignJWT({})
        .setProtectedHeader({ alg: "ES256", kid: "k2" })
        .sign(keys.privateKey);
      expect(await refusal(v.verify(stranger, NOW))).toBe(
        "AccessDeniedException: No key of the JWKS matches the jwt",
      );
    });
  });
});
