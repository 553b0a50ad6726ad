import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import SlowFirstSequencer from "./scripts/slow-first-sequencer.js";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** Workspace packages resolve to their TypeScript source in tests: no build needed for unit tests. */
export const sourceAliases = {
  "@chat-widget/protocol": here("./packages/protocol/src/index.ts"),
  "@chat-widget/chat-client": here("./packages/chat-client/src/index.ts"),
  // The widget's transcript window, which the agent console's transcripts use too.
  "@chat-widget/widget/transcript-window": here(
    "./packages/widget/src/lazy-views/TranscriptWindow.tsx",
  ),
};

/**
 * Test files run side by side, one more than the machine has cores: most of them wait on
 * sockets, servers, browsers and timers rather than the CPU. Vitest's own default (cores − 1)
 * ran the suite one file after another on a 2-core machine. Measured there (issue 59, one
 * hour, before the fault scenarios were spread over three files): 1 worker 1,611 s, 3 workers
 * 1,120 s; 3 against 4 (2026-12-03, one run after the other): 919 s and 833 s, wall ÷ the files'
 * sum 0.36 both times (the files themselves ran 10 % faster in the second run): no gain.
 */
const WORKERS = availableParallelism() + 1;

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    maxWorkers: WORKERS,
    sequence: { sequencer: SlowFirstSequencer },
    // The summary line last: CI reads it.
    reporters: ["default", "./scripts/timing-reporter.ts", "./scripts/summary-reporter.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          environment: "node",
          include: ["packages/{protocol,chat-client,server}/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/dist/**"],
          typecheck: {
            enabled: true,
            include: ["packages/**/*.test-d.ts"],
            tsconfig: "./tsconfig.typecheck.json",
          },
          // One dump of a fresh PGlite cluster for the run, which each file's stores start from.
          globalSetup: [here("./packages/server/test/support/fresh-cluster-setup.ts")],
          setupFiles: [here("./packages/server/test/support/fresh-cluster.ts")],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "dom",
          environment: "happy-dom",
          include: ["packages/{widget,agent-console}/**/*.test.{ts,tsx}"],
          exclude: ["**/node_modules/**", "**/dist/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          environment: "node",
          include: ["e2e/**/*.test.ts"],
          // One Chromium for the run; each file connects to it and keeps its own contact centre,
          // so the files run side by side like the rest.
          globalSetup: [
            here("./e2e/support/chromium-server.ts"),
            here("./packages/server/test/support/fresh-cluster-setup.ts"),
          ],
          setupFiles: [here("./packages/server/test/support/fresh-cluster.ts")],
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
