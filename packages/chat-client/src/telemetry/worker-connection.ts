/**
 * The page's link to the telemetry worker: a SharedWorker when one is supplied and starts,
 * the same worker code in the page otherwise. Posts CONFIG first and queues everything
 * else until the worker answers CONFIG; logs a fatal message when that takes more than
 * 5000 ms (and then runs the worker in the page instead). LOG messages from the worker go
 * to the logger.
 */
import type { ClientEnv, Logger, TimerHandle } from "../env.js";
import { InitializationException } from "./errors.js";
import { createLoopbackPorts } from "./loopback-port.js";
import { createTelemetryHost } from "./worker-host.js";
import type { TelemetryHost } from "./worker-host.js";
import { TelemetryMessageType as T, isWorkerToPageMessage } from "./worker-protocol.js";
import type {
  EventHandlerLike,
  PageToWorkerMessage,
  PortLike,
  TelemetryWorkerConfig,
} from "./worker-protocol.js";

export const TELEMETRY_INIT_TIMEOUT_MS = 5_000;
export const TELEMETRY_WORKER_NAME = "CSM_SharedWorker";
export const INIT_FATAL_MESSAGE =
  "[FATAL] CSM initialization failed! Please make sure the telemetry worker script is reachable.";
const MAX_QUEUED = 1_000;

/** The part of a `SharedWorker` the connection uses. */
export interface SharedWorkerLike {
  readonly port: PortLike;
  onerror: EventHandlerLike<unknown> | null;
}

/** Creates the SharedWorker that runs `worker-entry` (default: `blobSharedWorkerFactory()`). */
export type SharedWorkerFactory = () => SharedWorkerLike;

export type TelemetryMode = "shared-worker" | "in-page";

type Outgoing = PageToWorkerMessage extends infer M
  ? M extends { type: "CONFIG" }
    ? never
    : M extends PageToWorkerMessage
      ? Omit<M, "portId">
      : never
  : never;

export interface WorkerConnectionOptions {
  env: ClientEnv;
  logger: Logger;
  config: TelemetryWorkerConfig;
  sharedWorker?: SharedWorkerFactory | undefined;
}

export class WorkerConnection {
  private port: PortLike | null = null;
  private portId: number | null = null;
  private queue: Outgoing[] = [];
  private initTimer: TimerHandle | null = null;
  private inPageHost: TelemetryHost | null = null;
  private closed = false;
  private currentMode: TelemetryMode = "in-page";

  constructor(private readonly options: WorkerConnectionOptions) {
    if (options.sharedWorker) this.startSharedWorker(options.sharedWorker);
    else this.startInPage();
    if (!this.ready) {
      this.initTimer = options.env.setTimeout(
        () => this.onInitTimeout(),
        TELEMETRY_INIT_TIMEOUT_MS,
      );
    }
  }

  get mode(): TelemetryMode {
    return this.currentMode;
  }

  /** The worker answered CONFIG. */
  get ready(): boolean {
    return this.portId !== null;
  }

  post(message: Outgoing): void {
    if (this.closed) return;
    if (!this.ready || !this.port) {
      if (this.queue.length >= MAX_QUEUED) this.queue.shift();
      this.queue.push(message);
      return;
    }
    this.port.postMessage({ ...message, portId: this.portId });
  }

  /** Tell the worker this page is gone (it flushes when the last page closes). */
  close(): void {
    if (this.closed) return;
    if (this.ready) this.post({ type: T.Close });
    this.closed = true;
    this.queue = [];
    if (this.initTimer !== null) this.options.env.clearTimeout(this.initTimer);
    this.initTimer = null;
  }

  private startSharedWorker(factory: SharedWorkerFactory): void {
    try {
      const worker = factory();
      worker.onerror = (event) => this.fallBackToPage(event);
      this.attach(worker.port, "shared-worker");
    } catch (error) {
      this.fallBackToPage(error);
    }
  }

  private startInPage(): void {
    const [pagePort, hostPort] = createLoopbackPorts();
    this.inPageHost = createTelemetryHost(this.options.env);
    this.inPageHost.connect(hostPort);
    this.attach(pagePort, "in-page");
  }

  private attach(port: PortLike, mode: TelemetryMode): void {
    this.port = port;
    this.portId = null;
    this.currentMode = mode;
    port.onmessage = (event) => this.onWorkerMessage(port, event.data);
    port.start?.();
    port.postMessage({ type: T.Config, portId: null, message: this.options.config });
  }

  private fallBackToPage(reason: unknown): void {
    if (this.closed || this.inPageHost) return;
    this.log("warn", "Telemetry shared worker failed; running telemetry in the page", reason);
    if (this.port) {
      this.port.onmessage = null;
      this.port.close?.();
    }
    this.startInPage();
  }

  private onInitTimeout(): void {
    this.initTimer = null;
    if (this.ready || this.closed) return;
    this.log("error", INIT_FATAL_MESSAGE, new InitializationException());
    this.fallBackToPage(new InitializationException());
  }

  private onWorkerMessage(from: PortLike, data: unknown): void {
    if (from !== this.port || this.closed || !isWorkerToPageMessage(data)) return;
    if (data.type === T.Log) {
      this.log(data.level, data.message, data.detail);
      return;
    }
    if (this.ready) return;
    this.portId = data.portId;
    if (this.initTimer !== null) this.options.env.clearTimeout(this.initTimer);
    this.initTimer = null;
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) this.post(message);
  }

  private log(level: keyof Logger, message: string, detail?: unknown): void {
    try {
      const fn = this.options.logger[level] ?? (() => {});
      if (detail === undefined) fn.call(this.options.logger, message);
      else fn.call(this.options.logger, message, detail);
    } catch {
      // A throwing logger must not break a chat.
    }
  }
}
