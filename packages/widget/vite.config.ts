/**
 * The first script: `dist/chat-widget.js` (IIFE, minified, no framework: the element and its
 * painted launcher, issue 61), with the widget's fonts and the locales other than English
 * (`dist/locales/*.json`, loaded by a visitor who needs one). Built last: it carries the hash of
 * `chat-app.js`, which it loads on intent.
 */
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { defineConfig } from "vite";
import type { Plugin } from "vite";
import { contentVersion, here, scriptBuild, withoutClientTranscript } from "./vite.scripts.js";

const require = createRequire(import.meta.url);

const FONTS = ["poppins-latin-500-normal.woff2", "poppins-latin-500-italic.woff2"];

function copyAssets(): Plugin {
  return {
    name: "chat-widget-assets",
    apply: "build",
    writeBundle() {
      const out = join(here, "dist/fonts");
      mkdirSync(out, { recursive: true });
      for (const font of FONTS)
        copyFileSync(require.resolve(`@fontsource/poppins/files/${font}`), join(out, font));
      const locales = join(here, "dist/locales");
      mkdirSync(locales, { recursive: true });
      for (const file of readdirSync(join(here, "src/locales")))
        if (file.endsWith(".json"))
          copyFileSync(join(here, "src/locales", file), join(locales, file));
    },
  };
}

export default defineConfig({
  ...scriptBuild({
    entry: "src/main.ts",
    name: "ChatWidgetBundle",
    file: "chat-widget.js",
    emptyOutDir: false,
    // Built last: the app's hash goes into its URL (src/later-scripts.ts), and the views', which
    // it preloads once a chat exists.
    versions: {
      __CHAT_APP_VERSION__: contentVersion("chat-app.js"),
      __CHAT_VIEWS_VERSION__: contentVersion("chat-views.js"),
    },
  }),
  plugins: [copyAssets(), withoutClientTranscript],
});
