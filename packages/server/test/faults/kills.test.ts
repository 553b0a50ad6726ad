/** Issue 9's process faults (see survives.ts): a server killed, on its own or behind a balancer. */
import { describe, it } from "vitest";
import { startRig } from "./rig.js";
import { startTwoProcessRig } from "./rig-two.js";
import { closeRigAfterEach, SCENARIO_MS, sleep, survives } from "./survives.js";

closeRigAfterEach();

describe("nothing lost, nothing twice, nothing out of order when a server dies (issue 9)", () => {
  it.each(["pglite", "postgres"] as const)(
    "kill -9 of the server, restarted 3 s later (%s)",
    async (engine) => {
      await survives(
        () => startRig(engine),
        async (r) => {
          await r.kill();
          await sleep(3_000);
          await r.restart();
        },
      );
    },
    SCENARIO_MS,
  );

  it(
    "one of two Redis-connected processes killed: the load balancer fails over to the other",
    async () => {
      await survives(startTwoProcessRig, (r) => r.killAndFailOver());
    },
    SCENARIO_MS,
  );
});
