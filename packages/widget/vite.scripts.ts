/**
 * What the widget's three scripts are built with alike (vite.config.ts, vite.telemetry.config.ts,
 * vite.views.config.ts): one minified IIFE each into `dist/`, the workspace packages read from
 * their sources, production React.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { UserConfig } from "vite";

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

export function scriptBuild({ entry, name, file, emptyOutDir, versions }: ScriptBuild): UserConfig {
  return {
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
      minify: true,
      sourcemap: false,
      target: "es2022",
      lib: { entry: join(here, entry), formats: ["iife"], name, fileName: () => file },
    },
  };
}
