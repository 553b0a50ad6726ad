import type { FastifyInstance } from "fastify";
import { registerAgentSocket } from "./agent-socket/plugin.js";
import { adminRoutes } from "./agents/admin-routes.js";
import { adminAccess } from "./audit/admin-access.js";
import { auditRoutes } from "./audit/routes.js";
import { applyModeToDemoAdvisor } from "./agents/demo-advisor.js";
import { AgentEventsHub } from "./agents/events.js";
import { startClaimSweeper } from "./agents/claim-sweep.js";
import { startRevocationSweeper } from "./agents/revocation-sweep.js";
import { agentRoutes } from "./agents/routes.js";
import { AgentService } from "./agents/service.js";
import { anyAdvisorAvailable } from "./agents/advisors-repo.js";
import { AvailabilityCache } from "./agents/availability-cache.js";
import { listWaiting, queueLengths } from "./agents/queue-repo.js";
import { isoAt, systemClock, type Clock } from "./clock.js";
import { startExpirySweeper } from "./contact-centre/expiry.js";
import type { ServerDeps } from "./deps.js";
import { demoRoutes } from "./demo/routes.js";
import { loadFlows } from "./flow/load.js";
import { FlowRunner } from "./flow/runner.js";
import { acceptEmptyJson } from "./http/lenient-json.js";
import { gatewayRoutes } from "./gateway/routes.js";
import type { Family } from "./telemetry/prometheus.js";
import { metricsAccess } from "./telemetry/metrics-access.js";
import { telemetryRoutes } from "./telemetry/routes.js";
import { visitorRoutes } from "./visitor/routes.js";
import { historyRoutes } from "./history/routes.js";
import { startHistoryBuilder } from "./history/builder.js";
import { notesRoutes } from "./notes/routes.js";
import { cannedAdminRoutes, cannedRoutes } from "./canned/routes.js";
import { transferRoutes } from "./transfer/routes.js";
import { wrapUpRoutes } from "./wrap-up/routes.js";
import { Transfers } from "./transfer/transfers.js";

export interface FeatureOptions {
  clock?: Clock;
  /** Folder of the contact flow JSON files (default `packages/server/flows`). */
  flowsDir?: string;
  /** Build folders served at /widget/ and /agent/ (default: the packages' `dist`). */
  widgetDist?: string;
  agentConsoleDist?: string;
}

/**
 * Registers the contact centre's features beyond the participant service: the widget
 * service and gateway, the contact flow and bot, the agent API, telemetry ingest and the
 * demo pages. Returns a function that stops background work (flow listeners, timers).
 */
export async function registerFeatures(
  app: FastifyInstance,
  deps: ServerDeps,
  options: FeatureOptions = {},
): Promise<() => Promise<void>> {
  const clock = options.clock ?? systemClock;
  const onError = (err: unknown) => deps.log.error({ err }, "feature error");
  const flows = await loadFlows(options.flowsDir);
  await applyModeToDemoAdvisor(deps.db, deps.config.mode);

  const availability = new AvailabilityCache(
    () => anyAdvisorAvailable(deps.db, isoAt(clock.now())),
    clock,
  );
  const agents: AgentService = new AgentService({
    db: deps.db,
    centre: deps.centre,
    fanout: deps.fanout,
    clock,
    onError,
    onQueueChanged: (joined?: string): Promise<void> => runner.announcePositions(joined),
    onAdvisorsChanged: () => availability.forget(),
  });
  const hub = new AgentEventsHub({
    fanout: deps.fanout,
    queue: () => agents.queue(),
    chats: async (advisorId) => ({ Chats: await agents.chats(advisorId) }),
    onError,
  });
  await hub.start();
  const runner: FlowRunner = new FlowRunner({
    db: deps.db,
    centre: deps.centre,
    clock,
    flows,
    enqueue: (contactId, queue) => agents.enqueue(contactId, queue),
    advisorsAvailable: () => availability.get(),
    waiting: () => listWaiting(deps.db),
    onError,
  });
  const stopFlows = runner.start();
  const stopExpiry = startExpirySweeper(deps.db, deps.centre, clock, onError);
  const stopHistory = startHistoryBuilder(deps.db, deps.centre, onError);
  const stopAgentItems = deps.centre.onItemCommitted((contact, item) =>
    agents.onItem(contact, item),
  );

  await app.register(gatewayRoutes, {
    deps,
    clock,
    flowIds: new Set(flows.keys()),
    startChat: (input) => runner.startChat(input),
  });
  await app.register(async (scope) => {
    acceptEmptyJson(scope);
    await agentRoutes(scope, { service: agents, hub, clock, limits: deps.limits });
    const readers = {
      db: deps.db,
      centre: deps.centre,
      authenticate: (token: string | undefined) => agents.authenticate(token),
    };
    await visitorRoutes(scope, readers);
    await historyRoutes(scope, readers);
    await notesRoutes(scope, { ...readers, fanout: deps.fanout, clock, onError });
    await cannedRoutes(scope, { ...readers, clock });
    await wrapUpRoutes(scope, { ...readers, clock });
    await transferRoutes(scope, {
      transfers: new Transfers({ db: deps.db, centre: deps.centre, agents, clock }),
      authenticate: readers.authenticate,
    });
  });
  const queueFamilies = async (): Promise<Family[]> => {
    const lengths = await queueLengths(deps.db);
    return [
      {
        name: "chat_widget_queue_waiting_contacts",
        help: "Contacts waiting in each advisors' queue.",
        type: "gauge",
        samples: lengths.map((l) => ({
          name: "chat_widget_queue_waiting_contacts",
          labels: [["queue", l.queue]],
          value: l.waiting,
        })),
      },
      {
        name: "chat_widget_queue_active_chats",
        help: "Chats of each queue an advisor has accepted and not yet ended.",
        type: "gauge",
        samples: lengths.map((l) => ({
          name: "chat_widget_queue_active_chats",
          labels: [["queue", l.queue]],
          value: l.active,
        })),
      },
    ];
  };
  // The admin API: for the admin token (ADMIN_TOKEN) or an admin's session (issue 62).
  await app.register(async (scope) => {
    adminAccess(scope, {
      db: deps.db,
      clock,
      adminToken: deps.config.adminToken,
      authenticate: (token) => agents.authenticate(token),
    });
    await adminRoutes(scope, {
      db: deps.db,
      onAdvisorsChanged: () => availability.forget(),
      revoke: (advisorId) => agents.revoke(advisorId),
    });
    await cannedAdminRoutes(scope, { db: deps.db, clock });
    await auditRoutes(scope, { db: deps.db });
  });
  const canReadMetrics = metricsAccess(deps.config.metricsToken, (token) =>
    agents.authenticate(token).then(
      () => true,
      () => false,
    ),
  );
  await app.register(telemetryRoutes, { deps, clock, moreFamilies: queueFamilies, canReadMetrics });
  await app.register(demoRoutes, {
    deps,
    clock,
    widgetDist: options.widgetDist,
    agentConsoleDist: options.agentConsoleDist,
  });

  const sockets = await registerAgentSocket(app, { deps, clock });
  const stopRevocations = startRevocationSweeper({
    db: deps.db,
    clock,
    connected: () => [...sockets.advisorIds(), ...hub.advisorIds()],
    revoke: (advisorId) => agents.revoke(advisorId),
    onError,
  });
  const stopClaims = startClaimSweeper({
    db: deps.db,
    clock,
    released: (contactId, advisorId) => agents.released(contactId, advisorId),
    onError,
  });

  return async () => {
    await stopRevocations();
    await stopClaims();
    await stopFlows();
    await stopExpiry();
    await stopHistory();
    stopAgentItems();
    await hub.stop();
  };
}
