import { PGlite, type PGliteOptions } from "@electric-sql/pglite";

/**
 * In-memory stores (DATA_DIR=memory: the tests, a demo). A process that opens more than one
 * starts the later ones from a copy of a freshly initialised cluster instead of running initdb
 * again: initdb costs ~2.2 s of CPU here, loading the copy ~0.5 s (`node bench/pglite-open.mjs`).
 * The copy (~40 MB, outside the JavaScript heap) is held for the life of the process, so it is
 * not taken for a process's first, and usually only, store.
 */
let opened = 0;
let freshCluster: Promise<Blob> | undefined;

/** A copy of a cluster as initdb leaves it, made once; a failed attempt is tried again. */
function copyOfFreshCluster(options: PGliteOptions): Promise<Blob> {
  freshCluster ??= (async () => {
    const pg = await PGlite.create("memory://", options);
    try {
      return await pg.dumpDataDir("none");
    } finally {
      await pg.close();
    }
  })().catch((error: unknown) => {
    freshCluster = undefined;
    throw error;
  });
  return freshCluster;
}

/** A new, empty in-memory cluster, started with `options`. */
export async function createInMemory(options: PGliteOptions): Promise<PGlite> {
  opened += 1;
  if (opened === 1) return PGlite.create("memory://", options);
  const loadDataDir = await copyOfFreshCluster(options);
  return PGlite.create("memory://", { ...options, loadDataDir });
}
