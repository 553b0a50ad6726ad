/**
 * A setup file (vitest.config.ts): this test file's in-memory PGlite stores start from the run's
 * dump of a fresh cluster (fresh-cluster-setup.ts). Child servers the tests spawn run initdb as
 * `npm start` does.
 */
import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { startMemoryStoresFrom } from "../../src/store/pglite-memory.js";

const file = inject("pgliteFreshCluster");
startMemoryStoresFrom(() => new Blob([readFileSync(file)]));
