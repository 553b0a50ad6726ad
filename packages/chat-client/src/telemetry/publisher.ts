/**
 * The HTTP side of telemetry (docs/product.md §7, docs/protocol.md §8.4): `{endpoint}/auth` → jwtToken,
 * `{endpoint}/put-metrics`, `{endpoint}/put-workflow-events` and a custom endpoint, all POST
 * with JSON through the injected fetch. A response carrying `unsetToken` drops the jwtToken and
 * re-authenticates; later batches carry the new token (the batch itself was accepted, so it
 * is not sent twice). Failures are only logged: no method here ever rejects.
 */
import type {
  AuthParams,
  AuthResponse,
  PutMetricsRequest,
  PutMetricsResponse,
  PutWorkflowEventsRequest,
  PutWorkflowEventsResponse,
  WireMetric,
  WireWorkflowEvent,
} from "@chat-widget/protocol";
import type { FetchLike } from "../env.js";

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogSink = (level: LogLevel, message: string, detail?: unknown) => void;

export const AUTH_API_KEY_HEADER = { "x-api-key": "auth-method-level-key" } as const;
const JSON_HEADERS = { "Content-Type": "application/json" } as const;

/** Appended to the configured endpoint (docs/product.md §7: POST {endpoint}/auth, …). */
const EndpointPath = {
  Auth: "/auth",
  PutMetrics: "/put-metrics",
  PutWorkflowEvents: "/put-workflow-events",
} as const;

export const TelemetryLogText = {
  RequestFailed: "AJAX request failed with status",
  AuthFailed: "csm auth failed",
  PutMetricsFailed: "Put metrics to service failed",
  PutWorkflowEventsFailed: "Put workflow events to service failed",
  PutCustomFailed: "Failed to put custom data",
} as const;

/** What the worker keeps from CONFIG / SET_CONFIG / SET_AUTH. */
export interface PublisherConfig {
  /** The telemetry endpoint, EndpointPath appended. Nothing is sent without it. */
  endpointUrl?: string;
  dryRunMode?: boolean;
  authParams?: AuthParams;
  userId?: string;
  accountId?: string;
  organizationId?: string;
}

type PostResult = { ok: true; body: unknown } | { ok: false; detail: unknown };

export class Publisher {
  readonly config: PublisherConfig = {};
  private authInFlight: Promise<boolean> | null = null;

  constructor(
    private readonly fetch: FetchLike,
    private readonly log: LogSink,
  ) {}

  /** Store auth params and exchange them for a jwtToken at `/auth`. */
  setAuth(authParams: AuthParams): Promise<boolean> {
    this.config.authParams = { ...authParams };
    this.authInFlight = null;
    return this.authenticate();
  }

  async putMetrics(namespace: string, metricList: WireMetric[]): Promise<void> {
    if (!this.canSend()) return;
    await this.authInFlight;
    const body: PutMetricsRequest = {
      metricNamespace: namespace,
      metricList,
      authParams: this.config.authParams,
      accountId: this.config.accountId,
      organizationId: this.config.organizationId,
      agentResourceId: this.config.userId,
    };
    const result = await this.post(this.url(EndpointPath.PutMetrics), body, JSON_HEADERS);
    if (!result.ok) {
      this.log("error", TelemetryLogText.PutMetricsFailed, result.detail);
      return;
    }
    const response = result.body as PutMetricsResponse | undefined;
    if (response?.unsetToken) await this.reauthenticate();
  }

  async putWorkflowEvents(workflowEventList: WireWorkflowEvent[]): Promise<void> {
    if (!this.canSend()) return;
    await this.authInFlight;
    const body: PutWorkflowEventsRequest = {
      workflowEventList,
      authParams: this.config.authParams,
    };
    const result = await this.post(this.url(EndpointPath.PutWorkflowEvents), body, JSON_HEADERS);
    if (!result.ok) {
      this.log("error", TelemetryLogText.PutWorkflowEventsFailed, result.detail);
      return;
    }
    const response = result.body as PutWorkflowEventsResponse | undefined;
    const failed = response?.workflowEventList?.length ?? 0;
    if (failed > 0)
      this.log("warn", `There are ${failed} workflow events that failed to publish`, response);
    if (response?.unsetToken) await this.reauthenticate();
  }

  /** POST `data` to any endpoint; the given headers replace the default JSON content type. */
  async putCustom(
    endpoint: string,
    headers: Record<string, string> | undefined,
    data: unknown,
  ): Promise<void> {
    if (this.config.dryRunMode || !endpoint || data === undefined || data === null) return;
    const useHeaders = headers && Object.keys(headers).length > 0 ? headers : JSON_HEADERS;
    const result = await this.post(endpoint, data, useHeaders);
    if (!result.ok) this.log("error", TelemetryLogText.PutCustomFailed, result.detail);
  }

  private canSend(): boolean {
    return !this.config.dryRunMode && Boolean(this.config.endpointUrl);
  }

  private url(path: string): string {
    return `${(this.config.endpointUrl ?? "").replace(/\/+$/, "")}${path}`;
  }

  private reauthenticate(): Promise<boolean> {
    if (this.config.authParams) delete this.config.authParams.jwtToken;
    return this.authenticate();
  }

  /** One `/auth` call at a time; sends wait for it so they carry the new token. */
  private authenticate(): Promise<boolean> {
    if (this.authInFlight) return this.authInFlight;
    if (!this.canSend()) return Promise.resolve(false);
    const authParams = this.config.authParams ?? {};
    const attempt = (async () => {
      const result = await this.post(
        this.url(EndpointPath.Auth),
        { authParams },
        {
          ...JSON_HEADERS,
          ...AUTH_API_KEY_HEADER,
        },
      );
      const jwtToken = result.ok
        ? (result.body as Partial<AuthResponse> | undefined)?.jwtToken
        : undefined;
      if (typeof jwtToken !== "string" || jwtToken === "") {
        this.log("error", TelemetryLogText.AuthFailed, result.ok ? result.body : result.detail);
        return false;
      }
      this.config.authParams = { ...authParams, jwtToken };
      return true;
    })();
    this.authInFlight = attempt;
    void attempt.finally(() => {
      if (this.authInFlight === attempt) this.authInFlight = null;
    });
    return attempt;
  }

  private async post(
    url: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<PostResult> {
    try {
      const response = await this.fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      if (response.status !== 200) {
        this.log("warn", `${TelemetryLogText.RequestFailed}: ${response.status}`);
        return { ok: false, detail: { status: response.status } };
      }
      return { ok: true, body: await readJson(response) };
    } catch (error) {
      return { ok: false, detail: error };
    }
  }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
