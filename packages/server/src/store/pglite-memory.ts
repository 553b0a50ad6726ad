import { PGlite, type PGliteOptions } from "@electric-sql/pglite";

/**
 * In-memory stores (DATA_DIR=memory: the tests, a demo). Later ones start from a copy of a
 * freshly initialised cluster instead of running initdb again: initdb costs ~2.2 s of CPU here,
 * loading the copy ~0.5 s (`node bench/pglite-open.mjs`). The copy (~40 MB, outside the
 * JavaScript heap) is held for the life of the process, so a process makes one only once it
 * opens a second store; one it is given (`startMemoryStoresFrom`: the test suite makes one for
 * the whole run) is used from the first.
 */
let opened = 0;
let freshCluster: Promise<Blob> | undefined;
let given: (() => Blob | Promise<Blob>) | undefined;

/** A tar of a cluster as initdb leaves it. */
export async function dumpFreshCluster(options: PGliteOptions = {}): Promise<Blob> {
  const pg = await PGlite.create("memory://", options);
  try {
    return await pg.dumpDataDir("none");
  } finally {
    await pg.close();
  }
}

/**
 * This process's in-memory stores start from the copy `load` gives, a `dumpFreshCluster` of this
 * PGlite, read when the first store opens.
 */
export function startMemoryStoresFrom(load: () => Blob | Promise<Blob>): void {
  given = load;
  freshCluster = undefined;
}

/** The copy, made once; a failed attempt is tried again. */
function copyOfFreshCluster(options: PGliteOptions): Promise<Blob> {
  freshCluster ??= (given ? Promise.resolve().then(given) : dumpFreshCluster(options)).catch(
    (error: unknown) => {
      freshCluster = undefined;
      throw error;
    },
  );
  return freshCluster;
}

/** A new, empty in-memory cluster, started with `options`. */
export async function createInMemory(options: PGliteOptions): Promise<PGlite> {
  opened += 1;
  if (opened === 1 && !given) return PGlite.create("memory://", options);
  const loadDataDir = await copyOfFreshCluster(options);
  return PGlite.create("memory://", { ...options, loadDataDir });
}
