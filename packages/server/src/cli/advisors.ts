/**
 * `npm run advisors -- <command>`: manage the advisors who sign in to the agent console, on the
 * store the server uses (DATABASE_URL, else PGlite in DATA_DIR). With the embedded PGlite
 * store, stop the server first (one process per data directory); with PostgreSQL it runs
 * alongside the server.
 */
import { storeConfig } from "../config.js";
import { openDb } from "../store/open-db.js";
import { CliError, runAdvisorsCommand } from "./advisors-commands.js";

async function main(): Promise<void> {
  const db = await openDb(storeConfig(process.env));
  try {
    console.log(await runAdvisorsCommand(db, process.argv.slice(2)));
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof CliError ? error.message : error);
  process.exit(error instanceof CliError ? 2 : 1);
});
