/**
 * Log levels and the LogManager behind `setGlobalConfig({ loggerConfig })`. Quiet by default:
 * messages go to a customized logger, or to the console when `useDefaultLogger` is set.
 */
import type { Logger } from "../env.js";
import { valueError } from "./errors.js";
import { isFunction, isObject } from "./validation.js";

export const LogLevel = { DEBUG: 10, INFO: 20, WARN: 30, ERROR: 40, ADVANCED_LOG: 50 } as const;
export type LogLevelValue = (typeof LogLevel)[keyof typeof LogLevel];

type LogMethod = "debug" | "info" | "warn" | "error";
const METHODS: readonly LogMethod[] = ["debug", "info", "warn", "error"];
const LEVEL_OF: Record<LogMethod, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerConfig {
  /** Minimum level written (default INFO). */
  level?: number;
  /** An object with debug, info, warn and error functions. */
  customizedLogger?: Logger;
  /** Write to the console when no customized logger is given. */
  useDefaultLogger?: boolean;
  /** Which method ADVANCED_LOG entries are written with (default "info"). */
  advancedLogWriter?: LogMethod;
}

/** A logger that also writes ADVANCED_LOG entries. */
export interface ClientLogger extends Logger {
  advancedLog(...args: unknown[]): void;
}

/** The logger contract: an object with debug, info, warn and error functions (docs/product.md §5). */
export function assertLogger(value: unknown): asserts value is Logger {
  if (!isObject(value) || !METHODS.every((m) => isFunction(value[m]))) {
    throw valueError("The logger must be an object with debug, info, warn and error functions");
  }
}

export class LogManager {
  #level: number = LogLevel.INFO;
  #target: Logger | undefined;
  #advancedWriter: LogMethod = "info";

  updateLoggerConfig(config: LoggerConfig = {}): void {
    if (config.customizedLogger !== undefined) assertLogger(config.customizedLogger);
    this.#level = typeof config.level === "number" ? config.level : LogLevel.INFO;
    this.#advancedWriter = config.advancedLogWriter ?? "info";
    this.#target = config.customizedLogger ?? (config.useDefaultLogger ? console : undefined);
  }

  getLogger(prefix: string): ClientLogger {
    const write = (method: LogMethod, level: number, args: unknown[]) => {
      if (this.#target && level >= this.#level) this.#target[method](`[${prefix}]`, ...args);
    };
    const logger = {} as ClientLogger;
    for (const m of METHODS) logger[m] = (...args: unknown[]) => write(m, LEVEL_OF[m], args);
    logger.advancedLog = (...args: unknown[]) =>
      write(this.#advancedWriter, LogLevel.ADVANCED_LOG, args);
    return logger;
  }
}
