/**
 * Issue 9's network faults (see survives.ts): each outage lasts as long as the rule it tests
 * needs, no longer. The client's backoff through far longer outages, and its cap, are proven
 * with fake timers (src/websocket/manager-staying-connected.test.ts in the client).
 */
import { describe, it } from "vitest";
import { closeRigAfterEach, pglite, SCENARIO_MS, sleep, survives } from "./survives.js";

/** Past the client's 10 s websocket heartbeat (HEARTBEAT_INTERVAL_MS): one falls inside. */
const CUT_MS = 12_000;
/** Past the client's 15 s request timeout (REQUEST_TIMEOUT_MS): a black-holed send times out. */
const BLACKHOLE_MS = 20_000;

closeRigAfterEach();

describe("nothing lost, nothing twice, nothing out of order when the network fails (issue 9)", () => {
  it(
    "websockets reset for the outage (HTTP still passes)",
    async () => {
      await survives(pglite, async (r) => {
        await r.proxy.set("reset", { only: "websocket" });
        await sleep(CUT_MS);
        await r.proxy.set("pass");
      });
    },
    SCENARIO_MS,
  );

  it(
    "the network black-holed past the client's request timeout: nothing answers, nothing is refused",
    async () => {
      await survives(
        pglite,
        async (r) => {
          await r.proxy.set("blackhole");
          await sleep(BLACKHOLE_MS);
          await r.proxy.set("pass");
        },
        undefined,
        // A stalled socket is replaced, not necessarily seen closing: no lost event is required.
        false,
      );
    },
    SCENARIO_MS,
  );

  it(
    "HTTP and websockets refused for the outage",
    async () => {
      await survives(pglite, async (r) => {
        await r.proxy.set("refuse");
        await sleep(CUT_MS);
        await r.proxy.set("pass");
      });
    },
    SCENARIO_MS,
  );
});
