/** A folder of contact flows for a test: the default flow, changed as the test needs. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_FLOWS_DIR } from "../../src/flow/load.js";
import type { Flow } from "../../src/flow/types.js";

/** Writes the default flow, as `change` leaves it, into a new folder; returns the folder. */
export function defaultFlowWith(change: (flow: Flow) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "flows-"));
  const flow = JSON.parse(
    readFileSync(join(DEFAULT_FLOWS_DIR, "default-flow.json"), "utf8"),
  ) as Flow;
  change(flow);
  writeFileSync(join(dir, "default-flow.json"), JSON.stringify(flow));
  return dir;
}
