/**
 * The third script: `dist/chat-views.js` (IIFE, minified), the rare views (src/lazy-views).
 * Built after `vite.config.ts` (which empties `dist/`); the widget loads it when its window
 * first opens. React, its JSX runtime and the texts context are not bundled: they are the
 * widget's own, read from `window.__chatWidgetShared` (src/lazy-views/shared.ts sets it).
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
const textsContext = join(here, "src/texts-context.ts");

/** Each shared import and where the widget put it (the keys of `sharedModules`). */
const SHARED = {
  react: "__chatWidgetShared.react",
  "react/jsx-runtime": "__chatWidgetShared.jsxRuntime",
  [textsContext]: "__chatWidgetShared.textsContext",
};

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      "@chat-widget/protocol": join(root, "packages/protocol/src/index.ts"),
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
      entry: join(here, "src/lazy-views/entry.ts"),
      formats: ["iife"],
      name: "__chatWidgetViews",
      fileName: () => "chat-views.js",
    },
    rollupOptions: {
      external: Object.keys(SHARED),
      output: { globals: SHARED },
    },
  },
});
