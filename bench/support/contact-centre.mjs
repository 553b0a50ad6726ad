// The local contact centre from its build, PGlite in memory, on a free loopback port (see
// server-launch.mjs). `stop()` always ends the process.
import { launchServer } from "./server-launch.mjs";

/** Starts the contact centre and resolves with its URL once it listens. */
export async function startContactCentre() {
  const { url, stop } = await launchServer({ DATA_DIR: "memory" });
  return { url, stop };
}
