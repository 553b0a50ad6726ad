import { describe, expect, it } from "vitest";
import { DEFAULT_RECEIPT_THROTTLE_MS, GlobalConfig } from "./global-config.js";

describe("setGlobalConfig (docs/product.md §7, §9; docs/protocol.md §2.1, §4.2)", () => {
  it("the client library's defaults: region us-west-2, stage prod, cell 1, reconnect on, message receipts on, 5000 ms throttle", () => {
    const config = new GlobalConfig();
    expect(config.resolveRegion()).toBe("us-west-2");
    expect([
      config.stage,
      config.cell,
      config.reconnect,
      config.messageReceipts,
      config.throttleTime,
    ]).toEqual(["prod", "1", true, true, 5000]);
  });

  it("region precedence: override, then the session's option, then the global region", () => {
    const config = new GlobalConfig();
    config.update({ region: "eu-west-2" });
    expect(config.resolveRegion()).toBe("eu-west-2");
    expect(config.resolveRegion("ap-southeast-2")).toBe("ap-southeast-2");
    config.regionOverride = "ca-central-1";
    expect(config.resolveRegion("ap-southeast-2")).toBe("ca-central-1");
  });

  it("a later call without endpoint keeps the endpoint override", () => {
    const config = new GlobalConfig();
    config.update({ endpoint: "http://127.0.0.1:8080" });
    config.update({ region: "eu-west-2" });
    expect(config.endpoint).toBe("http://127.0.0.1:8080");
  });

  it("each call without a throttle time resets it to 5000 ms; throttleTime is a shorthand", () => {
    const config = new GlobalConfig();
    config.update({ features: { messageReceipts: { throttleTime: 1000 } } });
    expect(config.throttleTime).toBe(1000);
    config.update({ region: "eu-west-2" });
    expect(config.throttleTime).toBe(DEFAULT_RECEIPT_THROTTLE_MS);
    config.update({ throttleTime: 2500 });
    expect(config.throttleTime).toBe(2500);
  });

  it("message receipts can be switched off with features.messageReceipts.shouldSendMessageReceipts", () => {
    const config = new GlobalConfig();
    config.update({ features: { messageReceipts: { shouldSendMessageReceipts: false } } });
    expect(config.messageReceipts).toBe(false);
    config.update({});
    expect(config.messageReceipts).toBe(false);
  });
});
