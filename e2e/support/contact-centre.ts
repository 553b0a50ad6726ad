/** A real contact centre on 127.0.0.1:0 (PGlite in memory), serving the built browser apps. */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BuiltApp } from "../../packages/server/src/app.js";
import { startServer } from "../../packages/server/test/support/server.js";

/** PGlite compiles PostgreSQL's WebAssembly at start: a beforeAll that starts a centre needs it. */
export { STARTUP_MS } from "../../packages/server/test/client/support/contact-centre.js";

export interface ContactCentre {
  url: string;
  built: BuiltApp;
  close(): Promise<void>;
}

/** A build the tests need: what it is, a file it must have, and the workspace that builds it. */
export interface RequiredBuild {
  what: string;
  file: string;
  workspace: string;
}

export const WIDGET_BUILD: RequiredBuild = {
  what: "The widget",
  file: fileURLToPath(new URL("../../packages/widget/dist/chat-widget.js", import.meta.url)),
  workspace: "@chat-widget/widget",
};
export const CONSOLE_BUILD: RequiredBuild = {
  what: "The agent console",
  file: fileURLToPath(new URL("../../packages/agent-console/dist/index.html", import.meta.url)),
  workspace: "@chat-widget/agent-console",
};

/** Throws, saying which command builds it, when a build a test needs is missing. */
export function requireBuilds(builds: RequiredBuild[]): void {
  for (const { what, file, workspace } of builds) {
    if (!existsSync(file)) {
      throw new Error(`${what} is not built: run \`npm run build -w ${workspace}\` first`);
    }
  }
}

export async function startContactCentre(
  builds: RequiredBuild[] = [WIDGET_BUILD],
  options: { flowsDir?: string; env?: Record<string, string> } = {},
): Promise<ContactCentre> {
  requireBuilds(builds);
  return startServer("pglite", { features: true, ...options });
}
