// Writes gzip and brotli copies beside every text asset of the browser builds, so the
// server sends the widget script compressed (it serves them with @fastify/static's preCompressed).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = fileURLToPath(new URL("..", import.meta.url));
const dirs = ["packages/widget/dist", "packages/agent-console/dist"].map((d) => join(root, d));
const TEXT = /\.(js|mjs|css|html|svg|json|map)$/;

function* files(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (TEXT.test(name)) yield path;
  }
}

let count = 0;
for (const dir of dirs) {
  for (const path of files(dir)) {
    const body = readFileSync(path);
    writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    count++;
  }
}
console.log(`precompressed ${count} files (gzip, brotli)`);
