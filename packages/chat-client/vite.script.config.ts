/** The script-tag build: one minified classic script, `dist/script/chat-client.js` (src/script.ts). */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: {
    alias: {
      "@chat-widget/protocol": fileURLToPath(new URL("../protocol/src/index.ts", import.meta.url)),
    },
  },
  build: {
    outDir: "dist/script",
    emptyOutDir: false,
    minify: true,
    sourcemap: true,
    target: "es2022",
    lib: {
      entry: "src/script.ts",
      formats: ["iife"],
      name: "chatWidgetClient",
      fileName: () => "chat-client.js",
    },
    rolldownOptions: { treeshake: { propertyReadSideEffects: false } },
  },
});
