// The widget's scripts' sizes (design budget: the first script, React included, at most 100 KB
// gzipped; what is rarely needed comes later). Reads packages/widget/dist/chat-widget.js and the
// lazily loaded chat-telemetry.js and chat-views.js (build them first:
// npm run build -w @chat-widget/widget).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";

const dist = (name) => fileURLToPath(new URL(`../packages/widget/dist/${name}`, import.meta.url));
const BUDGET_GZIP = 100 * 1024;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

function measure(name) {
  const file = dist(name);
  if (!existsSync(file)) {
    console.error(`missing ${file}: run \`npm run build -w @chat-widget/widget\` first`);
    process.exit(1);
  }
  const code = readFileSync(file);
  return {
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code).length,
  };
}

const widget = measure("chat-widget.js");
const telemetry = measure("chat-telemetry.js");
const views = measure("chat-views.js");

console.log("| measure | chat-widget.js | chat-telemetry.js (lazy) | chat-views.js (lazy) |");
console.log("| --- | --- | --- | --- |");
for (const key of ["minified", "gzip", "brotli"]) {
  const label = key === "gzip" ? "gzip -9" : key;
  console.log(`| ${label} | ${kb(widget[key])} | ${kb(telemetry[key])} | ${kb(views[key])} |`);
}
console.log(`| budget (gzip) | ${kb(BUDGET_GZIP)} | | |`);
console.log(`| headroom | ${kb(BUDGET_GZIP - widget.gzip)} | | |`);
console.log(`| all three (gzip) | ${kb(widget.gzip + telemetry.gzip + views.gzip)} | | |`);
if (widget.gzip > BUDGET_GZIP) {
  console.error(`chat-widget.js is over budget by ${kb(widget.gzip - BUDGET_GZIP)}`);
  process.exit(1);
}
