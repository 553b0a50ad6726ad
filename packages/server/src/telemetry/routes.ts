/**
 * Telemetry ingest (docs/protocol.md §8.4, docs/product.md §7, docs/decisions.md #10): auth, put-metrics and
 * put-workflow-events, open to any origin but only to a visitor with a chat (ingest-auth.ts);
 * GET /metrics summarises in Prometheus text format. What is kept is bounded (limits.ts):
 * values, names and dimensions, distinct series, and batches per chat.
 */
import {
  TelemetryPath,
  type AuthRequest,
  type AuthResponse,
  type PutMetricsRequest,
  type PutMetricsResponse,
  type PutWorkflowEventsRequest,
  type PutWorkflowEventsResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { DAY_MS, type Clock } from "../clock.js";
import { startSweeper } from "../sweeper.js";
import type { ServerDeps } from "../deps.js";
import { Errors } from "../errors.js";
import { bearerToken } from "../http/bearer.js";
import { handleError } from "../http/errors.js";
import { rejectNulCharacters } from "../http/input-guard.js";
import { setCorsHeaders } from "../http/origin.js";
import { TelemetryGate } from "./ingest-auth.js";
import { MAX_SERIES } from "./limits.js";
import { metricRows } from "./metric-rows.js";
import { processMetricsText } from "./process-metrics.js";
import { boundedData, chargeTelemetry, sweepUsage } from "./quota.js";
import { telemetryFamilies } from "./metrics-text.js";
import { formatFamilies, PROMETHEUS_CONTENT_TYPE, type Family } from "./prometheus.js";
import { authBody, putMetricsBody, putWorkflowEventsBody } from "./schemas.js";
import { METRIC_SERIES, SeriesCap, WORKFLOW_SERIES } from "./series-cap.js";
import {
  insertMetrics,
  insertWorkflowEvents,
  metricSeries,
  metricSeriesKey,
  sweepTelemetry,
  workflowEventCounts,
  workflowSeriesKey,
} from "./store.js";

/** How often rows and series older than TELEMETRY_RETENTION_DAYS are deleted. */
const RETENTION_SWEEP_MS = 10 * 60_000;

/** The largest time a JavaScript Date holds. */
const MAX_EPOCH_MS = 8.64e15;

export interface TelemetryOptions {
  deps: ServerDeps;
  clock: Clock;
  /** Further families for /metrics (e.g. the advisors' queue). */
  moreFamilies?: () => Promise<Family[]>;
  /** Whether a request's Bearer token may read /metrics (default: anyone). */
  canReadMetrics?: (token: string | undefined) => Promise<boolean>;
}

export async function telemetryRoutes(
  app: FastifyInstance,
  options: TelemetryOptions,
): Promise<void> {
  const { deps, clock } = options;
  const { db, config } = deps;
  const now = () => clock.now();
  const metricCap = new SeriesCap(METRIC_SERIES, MAX_SERIES, now);
  const workflowCap = new SeriesCap(WORKFLOW_SERIES, MAX_SERIES, now);
  const retentionMs = config.telemetryRetentionDays * DAY_MS;
  /** The rows counted against their chat's daily quota (quota.ts), or 429. */
  const charge = (contactId: string, rows: readonly object[], now: number) =>
    chargeTelemetry(db, contactId, rows.length, JSON.stringify(rows).length, now, () =>
      deps.refusals.count("telemetry_quota"),
    );
  const stopSweeper = startSweeper(
    RETENTION_SWEEP_MS,
    async () => {
      await sweepTelemetry(db, clock.now() - retentionMs);
      await sweepUsage(db, clock.now() - DAY_MS);
    },
    (err) => app.log.warn({ err }, "telemetry retention sweep failed"),
  );
  app.addHook("onClose", async () => stopSweeper());
  app.setErrorHandler(handleError);
  rejectNulCharacters(app);

  app.addHook("onRequest", async (request, reply) => {
    // /metrics is for scrapers and the same-origin console: no other page may read it through
    // a visitor's browser (issue 25), so it gets no CORS headers.
    // The route matched, not the raw URL: `/%6Detrics` reaches the same route.
    if (request.routeOptions.url === "/metrics" || request.url.split("?")[0] === "/metrics") return;
    setCorsHeaders(reply, "*", request);
    if (request.method === "OPTIONS") return reply.code(204).send();
  });
  /** The worker's /auth call has no content type, so a browser sends text/plain: read it as JSON. */
  app.addHook("preValidation", async (request) => {
    if (typeof request.body !== "string") return;
    try {
      request.body = JSON.parse(request.body) as unknown;
    } catch {
      throw Errors.validation("Body is not valid JSON.");
    }
  });
  for (const path of Object.values(TelemetryPath)) {
    app.options(path, async (_request, reply) => reply.code(204).send());
  }

  const gate = new TelemetryGate({ db, secret: config.tokenSecret, clock, limits: deps.limits });

  app.post<{ Body: AuthRequest }>(
    TelemetryPath.Auth,
    { schema: { body: authBody } },
    async (request): Promise<AuthResponse> => ({
      jwtToken: await gate.issue(request.body.authParams, request.ip),
    }),
  );

  app.post<{ Body: PutMetricsRequest }>(
    TelemetryPath.PutMetrics,
    { schema: { body: putMetricsBody } },
    async (request): Promise<PutMetricsResponse> => {
      const now = clock.now();
      const body = request.body;
      const rows = metricRows(body, now);
      const contactId = await gate.admit(body.authParams?.jwtToken, TelemetryPath.PutMetrics);
      if (contactId === null) return { unsetToken: true };
      await charge(contactId, rows, now);
      await metricCap.write(db, rows.map(metricSeriesKey), (tx) => insertMetrics(tx, rows, now));
      return { unsetToken: false };
    },
  );

  app.post<{ Body: PutWorkflowEventsRequest }>(
    TelemetryPath.PutWorkflowEvents,
    { schema: { body: putWorkflowEventsBody } },
    async (request): Promise<PutWorkflowEventsResponse> => {
      const now = clock.now();
      const rows = request.body.workflowEventList.map((e, i) => {
        if (!Number.isFinite(e.timestamp) || Math.abs(e.timestamp) > MAX_EPOCH_MS) {
          throw Errors.validation(
            `workflowEventList[${i}].timestamp is not a time in milliseconds: ${e.timestamp}`,
          );
        }
        return {
          workflowType: e.workflowType,
          event: e.event,
          instanceId: e.instanceId,
          appName: e.appName,
          timeMs: e.timestamp,
          // Only the pair is kept, few and short (quota.ts): extra properties are neither stored
          // nor serialised.
          data: boundedData(e.data ?? []),
        };
      });
      const token = request.body.authParams?.jwtToken;
      const contactId = await gate.admit(token, TelemetryPath.PutWorkflowEvents);
      if (contactId === null) {
        // None stored: all are answered as failed, and the worker authenticates again.
        return { workflowEventList: request.body.workflowEventList, unsetToken: true };
      }
      await charge(contactId, rows, now);
      await workflowCap.write(db, rows.map(workflowSeriesKey), (tx) =>
        insertWorkflowEvents(tx, rows, now),
      );
      return {};
    },
  );

  app.get("/metrics", async (request, reply) => {
    if (options.canReadMetrics && !(await options.canReadMetrics(bearerToken(request))))
      throw Errors.accessDenied("/metrics needs METRICS_TOKEN or a signed-in advisor's token.");
    const families = telemetryFamilies(await metricSeries(db), await workflowEventCounts(db));
    families.push(deps.refusals.family(), ...deps.repairs.families());
    if (options.moreFamilies) families.push(...(await options.moreFamilies()));
    const text = formatFamilies(families) + (await processMetricsText());
    return reply.type(PROMETHEUS_CONTENT_TYPE).send(text);
  });
}
