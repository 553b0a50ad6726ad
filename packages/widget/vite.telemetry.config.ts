/**
 * The second script: `dist/chat-telemetry.js` (IIFE, minified), the chat client's telemetry.
 * Built after `vite.config.ts` (which empties `dist/`); the widget loads it lazily.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");

export default defineConfig({
  resolve: {
    alias: {
      "@chat-widget/protocol": join(root, "packages/protocol/src/index.ts"),
      "@chat-widget/chat-client": join(root, "packages/chat-client/src/index.ts"),
    },
  },
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  build: {
    outDir: "dist",
    emptyOutDir: false,
    minify: true,
    sourcemap: false,
    target: "es2022",
    lib: {
      entry: join(here, "src/telemetry/entry.ts"),
      formats: ["iife"],
      name: "ChatWidgetTelemetry",
      fileName: () => "chat-telemetry.js",
    },
  },
});
