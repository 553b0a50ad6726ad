/**
 * The second script: `dist/chat-telemetry.js` (IIFE, minified), the chat client's telemetry.
 * Built after `vite.config.ts` (which empties `dist/`); the widget loads it lazily.
 */
import { defineConfig } from "vite";
import { scriptBuild } from "./vite.scripts.js";

export default defineConfig(
  scriptBuild({
    entry: "src/telemetry/entry.ts",
    name: "ChatWidgetTelemetry",
    file: "chat-telemetry.js",
    emptyOutDir: false,
  }),
);
