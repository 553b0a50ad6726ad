/** Browser bundle of the chat client: one minified ES module, `dist/browser/chat-client.js`. */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: {
    alias: {
      "@chat-widget/protocol": fileURLToPath(new URL("../protocol/src/index.ts", import.meta.url)),
    },
  },
  build: {
    outDir: "dist/browser",
    // tsc writes dist/ first; the bundle must not wipe it.
    emptyOutDir: false,
    minify: true,
    sourcemap: true,
    target: "es2022",
    lib: { entry: "src/browser.ts", formats: ["es"], fileName: () => "chat-client.js" },
    rolldownOptions: {
      // No statement in the client reads a property for its side effects: unused reads
      // (e.g. protocol tables only index.ts consumers use) are dropped.
      treeshake: { propertyReadSideEffects: false },
      // Lib mode keeps whitespace in ES output; this bundle is for browsers, so minify it fully.
      // The bundle is final: `@__PURE__` annotations are dead weight in it.
      output: { minify: true, comments: false },
    },
  },
});
