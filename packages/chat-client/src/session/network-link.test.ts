import { afterEach, describe, expect, it, vi } from "vitest";
import { ContentType } from "@chat-widget/protocol";
import { createHarness, flush } from "../test-support/harness.js";
import type { Reply } from "../test-support/fake-participant-service.js";
import { CONNECTION_STATUSES } from "./connection-helper.js";
import { NetworkLinkStatus, toNetworkLinkStatus } from "./network-link.js";

afterEach(() => vi.useRealTimers());

async function connected() {
  const h = createHarness();
  await h.session.connect();
  h.manager.gain();
  await flush();
  return h;
}

describe("the session's network-link status: NeverEstablished, Establishing, Established, Broken (docs/product.md §4)", () => {
  it("is NeverEstablished before connect", () => {
    const h = createHarness();
    expect(h.session.getNetworkLinkStatus()).toBe(NetworkLinkStatus.NeverEstablished);
  });

  it("is Establishing while connect fetches the connection details and until the websocket is connected, then Established", async () => {
    const h = createHarness();
    let answer: (reply: Reply) => void = () => {};
    h.service.on("CreateParticipantConnection", () => new Promise((resolve) => (answer = resolve)));
    const connecting = h.session.connect();
    await flush();
    expect(h.service.calls("CreateParticipantConnection")).toHaveLength(1);
    expect(h.session.getNetworkLinkStatus()).toBe("Establishing");
    answer({
      body: {
        Websocket: { Url: "wss://ws.example.com/1", ConnectionExpiry: "2099-01-01T00:00:00.000Z" },
        ConnectionCredentials: { ConnectionToken: "c1", Expiry: "2099-01-01T00:00:00.000Z" },
      },
    });
    await connecting;
    expect(h.session.getConnectionStatus()).toBe("Starting");
    expect(h.session.getNetworkLinkStatus()).toBe("Establishing");
    h.manager.gain();
    expect(h.session.getNetworkLinkStatus()).toBe("Established");
  });

  it("is Broken when connect fails", async () => {
    const h = createHarness();
    h.service.on("CreateParticipantConnection", () => ({ status: 403, body: {} }));
    await h.session.connect().catch(() => undefined);
    expect(h.session.getNetworkLinkStatus()).toBe("Broken");
  });

  it("is Broken when the connection breaks on a chat-ended item", async () => {
    const h = await connected();
    h.manager.item(
      h.item({ Type: "EVENT", ContentType: ContentType.CHAT_ENDED, Content: undefined }),
    );
    expect(h.session.getNetworkLinkStatus()).toBe("Broken");
    h.manager.gain();
    expect(h.session.getNetworkLinkStatus()).toBe("Broken");
  });

  it("is Broken after disconnectParticipant ends the connection", async () => {
    const h = await connected();
    await h.session.disconnectParticipant();
    expect(h.session.getNetworkLinkStatus()).toBe("Broken");
  });

  it("is Broken when the websocket manager fails to initialise (terminates)", async () => {
    const h = createHarness();
    await h.session.connect();
    h.manager.initFailure();
    expect(h.session.getNetworkLinkStatus()).toBe("Broken");
  });

  it("is Broken while the connection is lost or a deep heartbeat fails, Established again when it recovers", async () => {
    const h = await connected();
    h.manager.lose();
    expect(h.session.getNetworkLinkStatus()).toBe("Broken");
    h.manager.gain();
    expect(h.session.getNetworkLinkStatus()).toBe("Established");
    h.manager.heartbeat(false);
    expect(h.session.getNetworkLinkStatus()).toBe("Broken");
    h.manager.heartbeat(true);
    expect(h.session.getNetworkLinkStatus()).toBe("Established");
  });

  it("follows the connection status as chatjs converts it", () => {
    expect(CONNECTION_STATUSES.map((s) => [s, toNetworkLinkStatus(s)])).toEqual([
      ["NeverStarted", "NeverEstablished"],
      ["Starting", "Establishing"],
      ["Connected", "Established"],
      ["ConnectionLost", "Broken"],
      ["Ended", "Broken"],
      ["DeepHeartbeatSuccess", "Established"],
      ["DeepHeartbeatFailure", "Broken"],
    ]);
    expect(Object.values(NetworkLinkStatus)).toEqual([
      "NeverEstablished",
      "Establishing",
      "Established",
      "Broken",
    ]);
  });
});
