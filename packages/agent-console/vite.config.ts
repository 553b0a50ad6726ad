/** The agent console, an app served by the contact centre at `/agent/`. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");

export default defineConfig({
  base: "/agent/",
  plugins: [react()],
  resolve: {
    alias: {
      "@chat-widget/protocol": join(root, "packages/protocol/src/index.ts"),
      "@chat-widget/chat-client": join(root, "packages/chat-client/src/index.ts"),
      "@chat-widget/widget/transcript-window": join(
        root,
        "packages/widget/src/lazy-views/TranscriptWindow.tsx",
      ),
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
  },
});
