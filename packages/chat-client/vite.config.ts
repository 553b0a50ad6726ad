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
    // Only dist/browser/ (tsc writes dist/ itself): no chunk of an earlier build stays behind.
    emptyOutDir: true,
    // terser (three compress passes) packs this bundle ~3 % tighter than the default minifier.
    minify: "terser",
    terserOptions: { compress: { passes: 3 }, format: { comments: false } },
    sourcemap: true,
    target: "es2022",
    lib: { entry: "src/browser.ts", formats: ["es"], fileName: () => "chat-client.js" },
    rolldownOptions: {
      // The transcript (src/session/transcript.ts) loads as a later chunk; what it shares with
      // the entry stays in the entry, which then also exports it to the chunk.
      preserveEntrySignatures: "allow-extension",
      // No statement in the client reads a property for its side effects: unused reads
      // (e.g. protocol tables only index.ts consumers use) are dropped.
      treeshake: { propertyReadSideEffects: false },
      // Lib mode keeps whitespace in ES output; this bundle is for browsers, so minify it fully.
      // The bundle is final: `@__PURE__` annotations are dead weight in it.
      output: { minify: true, comments: false },
    },
  },
});
