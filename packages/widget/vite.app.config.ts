/**
 * The second script: `dist/chat-app.js` (IIFE, minified, React included), the widget's React
 * app, loaded by the first script on the visitor's intent (issue 61). Built after the two
 * scripts it loads later, whose hashes it carries, and before the first, which carries its own.
 */
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { contentVersion, scriptBuild, withoutClientTranscript } from "./vite.scripts.js";

export default defineConfig({
  ...scriptBuild({
    entry: "src/app-main.ts",
    name: "ChatWidgetApp",
    file: "chat-app.js",
    emptyOutDir: false,
    versions: {
      __CHAT_VIEWS_VERSION__: contentVersion("chat-views.js"),
      __CHAT_TELEMETRY_VERSION__: contentVersion("chat-telemetry.js"),
    },
  }),
  plugins: [react(), withoutClientTranscript],
});
