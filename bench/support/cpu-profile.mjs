// The top of a V8 CPU profile (`node --cpu-prof`): functions by self time, as a table's rows.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Where a function is: its file (relative to the repository or node_modules) and line. */
function where({ url, lineNumber }) {
  if (!url) return "(native)";
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  const short = path.startsWith(ROOT) ? relative(ROOT, path) : path;
  return `${short.replace(/^.*node_modules\//, "")}:${lineNumber + 1}`;
}

/** Self time summed by `keyOf(callFrame)`: the `count` largest as [key, % of samples]. */
function top(file, count, keyOf) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const hits = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const key = keyOf(node.callFrame);
    hits.set(key, (hits.get(key) ?? 0) + node.hitCount);
    total += node.hitCount;
  }
  return [...hits.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, n]) => [key, `${((100 * n) / total).toFixed(1)} %`]);
}

/** The functions with the most self time: [`name (file:line)`, share]. */
export const topFunctions = (file, count = 10) =>
  top(file, count, (frame) => `${frame.functionName || "(anonymous)"} (${where(frame)})`);

/** Self time by module (a file; PGlite's WebAssembly as one): [module, share]. */
export const topModules = (file, count = 10) =>
  top(file, count, (frame) =>
    frame.url.startsWith("wasm://")
      ? "PGlite's PostgreSQL (WebAssembly)"
      : where(frame).replace(/:\d+$/, "") || "(native)",
  );
