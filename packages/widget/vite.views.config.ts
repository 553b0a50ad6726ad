/**
 * The third script: `dist/chat-views.js` (IIFE, minified), the rare views (src/lazy-views).
 * Built after the telemetry script (which empties `dist/`) and before `chat-widget.js`, which
 * carries its hash; the widget loads it once a chat exists.
 * React, its JSX runtime and the texts context are not bundled: they are the
 * widget's own, read from `window.__chatWidgetShared` (src/lazy-views/shared.ts sets it).
 */
import { join } from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { here, scriptBuild, withoutClientTranscript } from "./vite.scripts.js";

const textsContext = join(here, "src/texts-context.ts");

/** Each shared import and where the widget put it (the keys of `sharedModules`). */
const SHARED = {
  react: "__chatWidgetShared.react",
  "react/jsx-runtime": "__chatWidgetShared.jsxRuntime",
  [textsContext]: "__chatWidgetShared.textsContext",
};

const views = scriptBuild({
  entry: "src/lazy-views/entry.ts",
  name: "__chatWidgetViews",
  file: "chat-views.js",
  emptyOutDir: false,
});

export default defineConfig({
  ...views,
  plugins: [react(), withoutClientTranscript],
  build: {
    ...views.build,
    rolldownOptions: {
      ...views.build?.rolldownOptions,
      external: Object.keys(SHARED),
      output: { ...views.build?.rolldownOptions?.output, globals: SHARED },
    },
  },
});
