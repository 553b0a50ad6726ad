// What opening an in-memory store costs (packages/server/dist, this process): CPU and wall time
// of each of BENCH_OPENS (default 6) stores opened one after another with the schema migrated,
// as every test server on PGlite opens one. The first runs initdb; the later ones start from a
// copy of a fresh cluster (src/store/pglite-memory.ts). The copy is made at the second open,
// which therefore pays for initdb twice. Build first: npm run build.
import { openDb } from "../packages/server/dist/store/open-db.js";

const OPENS = Number(process.env.BENCH_OPENS ?? 6);
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const rows = [];
for (let i = 1; i <= OPENS; i++) {
  const [wall, cpu] = [performance.now(), cpuMs()];
  const db = await openDb({ dataDir: "memory" });
  rows.push({
    open: i,
    cpuMs: Math.round(cpuMs() - cpu),
    wallMs: Math.round(performance.now() - wall),
  });
  await db.close();
}
console.log("| open | CPU ms | wall ms |\n|---|---|---|");
for (const r of rows) console.log(`| ${r.open} | ${r.cpuMs} | ${r.wallMs} |`);
const later = rows
  .slice(2)
  .map((r) => r.cpuMs)
  .sort((a, b) => a - b);
const median = later[Math.floor(later.length / 2)];
console.log(
  `\nFirst open ${rows[0].cpuMs} CPU ms; from the third on, median ${median} CPU ms (${(median / rows[0].cpuMs).toFixed(2)}× the first).`,
);
