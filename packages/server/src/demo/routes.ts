/**
 * The builds: the widget at `/widget/`, the agent console at `/agent/`; and in demo mode only,
 * the demo shop page at `/` (it hands every visitor a signed visitor jwt).
 */
import type { FastifyInstance } from "fastify";
import type { Clock } from "../clock.js";
import type { ServerDeps } from "../deps.js";
import { demoJwt, DEMO_ORDER_NUMBER } from "./demo-jwt.js";
import { demoPage } from "./page.js";
import { AGENT_CONSOLE_DIST, serveBuild, WIDGET_DIST } from "./static.js";

export interface DemoOptions {
  deps: ServerDeps;
  clock: Clock;
  widgetDist?: string;
  agentConsoleDist?: string;
}

export async function demoRoutes(app: FastifyInstance, options: DemoOptions): Promise<void> {
  const { deps, clock } = options;
  if (deps.config.mode === "demo") {
    app.get("/", async (_request, reply) =>
      reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .send(demoPage(demoJwt(deps.config.widgetJwtSecret, clock.now()), DEMO_ORDER_NUMBER)),
    );
  }
  await serveBuild(app, {
    prefix: "/widget/",
    root: options.widgetDist ?? WIDGET_DIST,
    what: "The chat widget",
    spa: false,
    anyOrigin: true,
  });
  await serveBuild(app, {
    prefix: "/agent/",
    root: options.agentConsoleDist ?? AGENT_CONSOLE_DIST,
    what: "The agent console",
    spa: true,
  });
}
