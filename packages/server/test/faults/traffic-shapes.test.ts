/** Issue 9's awkward traffic (see survives.ts): a late subscribe, a burst past the rate limit. */
import { describe, it } from "vitest";
import { closeRigAfterEach, pglite, SCENARIO_MS, sleep, survives } from "./survives.js";

/** How long a slow subscribe is held: sends go on meanwhile, unseen by the new socket. */
const SLOW_SUBSCRIBE_MS = 3_000;

closeRigAfterEach();

describe("nothing lost, nothing twice, nothing out of order under awkward traffic (issue 9)", () => {
  it(
    "a slow subscribe: each new websocket's subscribe held 3 s while both sides keep sending",
    async () => {
      await survives(pglite, async (r) => {
        r.proxy.slowWebsocketStart(SLOW_SUBSCRIBE_MS);
        // Three rounds of new sockets whose subscribe arrives late.
        for (let round = 0; round < 3; round++) {
          await r.proxy.set("reset", { only: "websocket" });
          await sleep(500);
          await r.proxy.set("pass");
          await sleep(SLOW_SUBSCRIBE_MS + 3_000);
        }
        r.proxy.slowWebsocketStart(0);
      });
    },
    SCENARIO_MS,
  );

  it(
    "a burst past the rate limit: 100 visitor messages at once, 50 advisor messages at once",
    async () => {
      await survives(
        pglite,
        async () => {},
        (c, a) => {
          c.burst(100);
          a.burst(50);
        },
        false,
      );
    },
    SCENARIO_MS,
  );
});
