/**
 * The second script: `dist/chat-telemetry.js` (IIFE, minified), the chat client's telemetry.
 * Built first (it empties `dist/`); the widget loads it lazily, its URL carrying its hash.
 */
import { defineConfig } from "vite";
import { scriptBuild } from "./vite.scripts.js";

export default defineConfig(
  scriptBuild({
    entry: "src/telemetry/entry.ts",
    name: "ChatWidgetTelemetry",
    file: "chat-telemetry.js",
    emptyOutDir: true,
  }),
);
