// The widget's scripts' sizes (issue 61): the first script, which a page loads with its tag and
// which paints the launcher, at most 10 KB gzipped; the app it loads on the visitor's intent
// (React, the client, the window) at most 100 KB; what is rarely needed comes later still.
// Reads packages/widget/dist/ (build first: npm run build -w @chat-widget/widget).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";

const dist = (name) => fileURLToPath(new URL(`../packages/widget/dist/${name}`, import.meta.url));
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

/** Each script, and its budget (gzip) where it has one. */
const SCRIPTS = [
  ["chat-widget.js (first)", "chat-widget.js", 10 * 1024],
  ["chat-app.js (on intent)", "chat-app.js", 100 * 1024],
  ["chat-telemetry.js (lazy)", "chat-telemetry.js"],
  ["chat-views.js (lazy)", "chat-views.js"],
].map(([label, file, budget]) => ({ label, budget, ...measure(file) }));

console.log(`| measure | ${SCRIPTS.map((s) => s.label).join(" | ")} |`);
console.log(`| --- |${" --- |".repeat(SCRIPTS.length)}`);
for (const key of ["minified", "gzip", "brotli"]) {
  const label = key === "gzip" ? "gzip -9" : key;
  console.log(`| ${label} | ${SCRIPTS.map((s) => kb(s[key])).join(" | ")} |`);
}
const cell = (s, f) => (s.budget ? f(s) : "");
console.log(`| budget (gzip) | ${SCRIPTS.map((s) => cell(s, (b) => kb(b.budget))).join(" | ")} |`);
console.log(
  `| headroom | ${SCRIPTS.map((s) => cell(s, (b) => kb(b.budget - b.gzip))).join(" | ")} |`,
);
console.log(`| all (gzip) | ${kb(SCRIPTS.reduce((sum, s) => sum + s.gzip, 0))} |`);
let over = false;
for (const s of SCRIPTS)
  if (s.budget && s.gzip > s.budget) {
    console.error(`${s.label} is over budget by ${kb(s.gzip - s.budget)}`);
    over = true;
  }
if (over) process.exit(1);
