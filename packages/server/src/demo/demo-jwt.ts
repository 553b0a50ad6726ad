/** The demo visitor's jwt (spec docs/decisions.md #3): its `attributes` claim carries the order number. */
import { signJwt } from "../gateway/jwt.js";

/** The visitor-jwt secret when none is configured: the demo page signs with it (demo only). */
export const DEMO_JWT_SECRET = "demo-secret";
export const DEMO_ORDER_NUMBER = "A-10042";
export const DEMO_EMAIL = "alex.morgan@example.com";

export function demoJwt(secret: string | undefined, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  return signJwt(
    {
      sub: "demo-visitor",
      iat,
      exp: iat + 24 * 60 * 60,
      attributes: {
        orderNumber: DEMO_ORDER_NUMBER,
        customerName: "Alex Morgan",
        email: DEMO_EMAIL,
        basketItems: 2,
      },
    },
    secret ?? DEMO_JWT_SECRET,
  );
}
