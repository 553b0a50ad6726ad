// Runs every benchmark in bench/ (each a standalone script printing its own table), in order.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const scripts = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs")
  .sort();
let failed = 0;
for (const script of scripts) {
  console.log(`\n## ${script}`);
  const run = spawnSync(process.execPath, [`${dir}${script}`], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
