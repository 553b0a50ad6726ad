/** Loads the contact flows from JSON files (one flow per file, `packages/server/flows/*.json`). */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Flow } from "./types.js";
import { FlowFileError, validateFlow } from "./validate.js";

/** `packages/server/flows`, found from this module (src/flow or dist/flow), not from the cwd. */
export const DEFAULT_FLOWS_DIR = fileURLToPath(new URL("../../flows/", import.meta.url));

/** Every flow in `dir`, by id. Throws a FlowFileError naming the file when one is invalid. */
export async function loadFlows(dir: string = DEFAULT_FLOWS_DIR): Promise<Map<string, Flow>> {
  const flows = new Map<string, Flow>();
  const files = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  for (const file of files) {
    const path = join(dir, file);
    let json: unknown;
    try {
      json = JSON.parse(await readFile(path, "utf8"));
    } catch (err) {
      throw new FlowFileError(`${path}: not valid JSON (${(err as Error).message})`);
    }
    const flow = validateFlow(json, path);
    if (flows.has(flow.id)) throw new FlowFileError(`${path}: a second flow with id "${flow.id}"`);
    flows.set(flow.id, flow);
  }
  return flows;
}
