import { describe, expect, it } from "vitest";
import { LogLevel, LogManager, assertLogger } from "./logger.js";
import { recordingLogger } from "../test-support/harness.js";

describe("logger contract and levels (docs/product.md §5, §9)", () => {
  it("log levels are DEBUG 10, INFO 20, WARN 30, ERROR 40, ADVANCED_LOG 50", () => {
    expect(LogLevel).toEqual({ DEBUG: 10, INFO: 20, WARN: 30, ERROR: 40, ADVANCED_LOG: 50 });
  });

  it("the logger must be an object with debug, info, warn and error functions", () => {
    expect(() => assertLogger(null)).toThrow(expect.objectContaining({ name: "ValueError" }));
    expect(() => assertLogger({ debug() {}, info() {}, warn() {} })).toThrow(
      "debug, info, warn and error functions",
    );
    expect(() => assertLogger({ debug() {}, info() {}, warn() {}, error() {} })).not.toThrow();
  });

  it("messages below the configured level are not written", () => {
    const { logger, entries } = recordingLogger();
    const manager = new LogManager();
    manager.updateLoggerConfig({ customizedLogger: logger, level: LogLevel.WARN });
    const log = manager.getLogger("Test");
    log.debug("d");
    log.info("i");
    log.warn("w");
    log.error("e");
    expect(entries).toEqual([
      { level: "warn", text: "[Test] w" },
      { level: "error", text: "[Test] e" },
    ]);
  });

  it("the default level is INFO and ADVANCED_LOG entries go to the chosen writer", () => {
    const { logger, entries } = recordingLogger();
    const manager = new LogManager();
    manager.updateLoggerConfig({ customizedLogger: logger, advancedLogWriter: "warn" });
    const log = manager.getLogger("T");
    log.debug("hidden");
    log.advancedLog("adv");
    expect(entries).toEqual([{ level: "warn", text: "[T] adv" }]);
  });

  it("nothing is written without a logger (quiet by default)", () => {
    const manager = new LogManager();
    expect(() => manager.getLogger("T").error("x")).not.toThrow();
  });
});
