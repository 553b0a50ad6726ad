// Run by `npm pack`/`npm publish` in a published package's folder: give it the repository's
// licence, and refuse to pack a package whose build output is missing.
import { copyFileSync, existsSync, readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync("package.json", "utf8"));
copyFileSync(new URL("../LICENSE", import.meta.url), "LICENSE");
for (const entry of manifest.files ?? []) {
  if (!entry.startsWith("!") && !existsSync(entry)) {
    console.error(`${manifest.name}: ${entry} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}
