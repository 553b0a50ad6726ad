/**
 * The built browser apps: the widget (`packages/widget/dist`) at `/widget/` and the agent
 * console (`packages/agent-console/dist`) at `/agent/` with a single-page-app fallback.
 * Paths are found from this module, not from the working directory. A missing build
 * answers 503 with a plain-text hint.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";

export const WIDGET_DIST = fileURLToPath(new URL("../../../widget/dist/", import.meta.url));
export const AGENT_CONSOLE_DIST = fileURLToPath(
  new URL("../../../agent-console/dist/", import.meta.url),
);

export function notBuiltText(what: string, dir: string): string {
  return `${what} is not built yet (${dir} is missing).\nRun \`npm run build\` in the repository root, then restart the server.\n`;
}

/**
 * Serve `root` under `prefix` (ending in "/"); `spa`: unknown paths without an extension get
 * index.html; `anyOrigin`: every file readable by pages of any origin (the widget's fonts and
 * locales are fetched with CORS from the shop's pages).
 */
export async function serveBuild(
  app: FastifyInstance,
  options: { prefix: string; root: string; what: string; spa: boolean; anyOrigin?: boolean },
): Promise<void> {
  const { prefix, root, what, spa, anyOrigin = false } = options;
  const bare = prefix.replace(/\/$/, "");
  if (!existsSync(root)) {
    const unavailable = async (_req: unknown, reply: FastifyReply) =>
      reply.code(503).type("text/plain; charset=utf-8").send(notBuiltText(what, root));
    app.get(bare, unavailable);
    app.get(`${prefix}*`, unavailable);
    return;
  }
  await app.register(
    async (scope) => {
      await scope.register(fastifyStatic, {
        root,
        prefix: "/",
        decorateReply: false,
        index: ["index.html"],
        redirect: false,
        preCompressed: true,
        ...(anyOrigin
          ? {
              setHeaders: (reply) => {
                reply.header("access-control-allow-origin", "*");
              },
            }
          : {}),
      });
      if (!spa) return;
      const index = join(root, "index.html");
      scope.setNotFoundHandler(async (request, reply) => {
        const path = request.url.split("?")[0] ?? "";
        if (request.method === "GET" && extname(path) === "" && existsSync(index)) {
          return reply.type("text/html; charset=utf-8").send(await readFile(index, "utf8"));
        }
        return reply.code(404).type("text/plain; charset=utf-8").send("Not found\n");
      });
    },
    { prefix: bare },
  );
  if (spa) app.get(bare, async (_req, reply) => reply.redirect(prefix, 302));
}
