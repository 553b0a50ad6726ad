// Child-process entry for bench/server-latency.mjs: the contact centre from its build
// (packages/server/dist), configured from the environment exactly as `npm start` is, on a
// store opened here so that BENCH_ADVISORS extra advisors (usernames bench1…benchN, password
// "demo", 10 chats each) can be seeded beside the demo advisor before it listens. Sends
// { url } to the parent once listening; SIGTERM closes the server and the store.
import { buildApp, listen } from "../../packages/server/dist/app.js";
import { loadConfig } from "../../packages/server/dist/config.js";
import { openDb } from "../../packages/server/dist/store/open-db.js";

const config = loadConfig(process.env);
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const advisors = Number(process.env.BENCH_ADVISORS ?? 0);
if (advisors > 0) {
  // Copies the demo advisor's password hash, so every bench advisor signs in with "demo".
  await db.query(
    `INSERT INTO advisors (advisor_id, username, display_name, password_hash, availability)
     SELECT 'bench-advisor-' || n, 'bench' || n, 'Bench advisor ' || n, password_hash, 'Offline'
     FROM advisors, generate_series(1, $1::int) AS n
     WHERE username = 'demo'
     ON CONFLICT DO NOTHING`,
    [advisors],
  );
}
const built = await buildApp(config, { db });
const url = await listen(built);
process.send({ url });

let stopping = false;
process.on("SIGTERM", () => {
  if (stopping) return;
  stopping = true;
  built
    .close()
    .then(() => db.close())
    .then(
      () => process.exit(0),
      (error) => {
        console.error("shutdown failed:", error);
        process.exit(1);
      },
    );
});
