// Size of the chat client's browser bundle (minified ES module) against its 15 KB gzipped budget.
// Run after `npm run build` (the bench runner builds first): node bench/client-size.mjs
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const BUDGET_BYTES = 15 * 1024;
const bundle = fileURLToPath(
  new URL("../packages/chat-client/dist/browser/chat-client.js", import.meta.url),
);

if (!existsSync(bundle)) {
  console.error(`missing ${bundle}: run \`npm run build -w @chat-widget/chat-client\` first`);
  process.exit(1);
}

const code = readFileSync(bundle);
const gzipped = gzipSync(code, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
const rows = [
  ["bundle", "packages/chat-client/dist/browser/chat-client.js"],
  ["minified", `${kb(code.length)} (${code.length} B)`],
  ["minified + gzip -9", `${kb(gzipped)} (${gzipped} B)`],
  ["budget (gzip)", `${kb(BUDGET_BYTES)} (${BUDGET_BYTES} B)`],
  ["headroom", `${kb(BUDGET_BYTES - gzipped)}`],
  ["verdict", gzipped <= BUDGET_BYTES ? "within budget" : "OVER BUDGET"],
];
// Later chunks, loaded only when a page uses what they hold (the transcript: onTranscriptUpdated).
const dir = dirname(bundle);
for (const name of readdirSync(dir).filter((f) => f.endsWith(".js") && f !== "chat-client.js")) {
  const chunk = readFileSync(`${dir}/${name}`);
  rows.push([
    `later chunk ${name}`,
    `${kb(gzipSync(chunk, { level: 9 }).length)} gzip (not budgeted)`,
  ]);
}
// For reference: everything src/index.ts exports, telemetry included (not the script-tag bundle).
try {
  const { build } = await import("esbuild");
  const src = (p) => fileURLToPath(new URL(`../packages/${p}`, import.meta.url));
  const out = await build({
    entryPoints: [src("chat-client/src/index.ts")],
    alias: { "@chat-widget/protocol": src("protocol/src/index.ts") },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const full = out.outputFiles[0].contents;
  rows.push([
    "index.ts incl. telemetry (esbuild, gzip -9)",
    `${kb(gzipSync(full, { level: 9 }).length)} (reference, not budgeted)`,
  ]);
} catch (error) {
  rows.push(["index.ts incl. telemetry", `not measured: ${error.message}`]);
}
const width = Math.max(...rows.map(([k]) => k.length));
console.log("| measure | value |\n|---|---|");
for (const [k, v] of rows) console.log(`| ${k.padEnd(width)} | ${v} |`);
process.exit(gzipped <= BUDGET_BYTES ? 0 : 1);
