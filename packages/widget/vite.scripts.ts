/**
 * What the widget's three scripts are built with alike (vite.config.ts, vite.telemetry.config.ts,
 * vite.views.config.ts): one minified IIFE each into `dist/`, the workspace packages read from
 * their sources, production React.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin, UserConfig } from "vite";

export const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");

export interface ScriptBuild {
  /** The entry, relative to this folder. */
  entry: string;
  /** The global the IIFE assigns. */
  name: string;
  /** Its file name in `dist/`. */
  file: string;
  /** Only the first build empties `dist/`. */
  emptyOutDir: boolean;
  /** Constants the script is built with (the later scripts' versions). */
  versions?: Record<string, string>;
}

/** A built script's version: the first 12 hex digits of its content's SHA-256. */
export function contentVersion(file: string): string {
  const body = readFileSync(join(here, "dist", file));
  return createHash("sha256").update(body).digest("hex").slice(0, 12);
}

const LEFT_OUT = "\0client-transcript-left-out";

/**
 * The widget never subscribes to the client's onTranscriptUpdated, whose transcript the client
 * loads with `import("./transcript.js")`; an IIFE would inline it, so the widget's scripts leave
 * it out. Were it ever subscribed, the import fails and the client logs so.
 */
export const withoutClientTranscript: Plugin = {
  name: "without-client-transcript",
  enforce: "pre",
  resolveId(source, importer) {
    if (source === "./transcript.js" && importer?.includes("chat-client/src/session/"))
      return LEFT_OUT;
  },
  load(id) {
    if (id === LEFT_OUT)
      return 'throw new Error("The widget is built without the client\'s transcript");';
  },
};

export function scriptBuild({ entry, name, file, emptyOutDir, versions }: ScriptBuild): UserConfig {
  return {
    plugins: [withoutClientTranscript],
    resolve: {
      alias: {
        "@chat-widget/protocol": join(root, "packages/protocol/src/index.ts"),
        "@chat-widget/chat-client": join(root, "packages/chat-client/src/index.ts"),
      },
    },
    define: {
      "process.env.NODE_ENV": JSON.stringify("production"),
      ...Object.fromEntries(
        Object.entries(versions ?? {}).map(([key, value]) => [key, JSON.stringify(value)]),
      ),
    },
    build: {
      outDir: "dist",
      emptyOutDir,
      // terser (two compress passes) packs these scripts tighter than the default minifier.
      minify: "terser",
      terserOptions: { compress: { passes: 2 }, format: { comments: false } },
      sourcemap: false,
      target: "es2022",
      lib: { entry: join(here, entry), formats: ["iife"], name, fileName: () => file },
      rolldownOptions: { output: { minify: true, comments: false } },
    },
  };
}
