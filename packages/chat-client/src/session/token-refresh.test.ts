import { afterEach, describe, expect, it, vi } from "vitest";
import { CONNECTION_TOKEN_POLLING_INTERVAL_MS, refreshDelayMs } from "./token-refresh.js";
import { START, createHarness, flush } from "../test-support/harness.js";

afterEach(() => vi.useRealTimers());

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

describe("connection token refresh (docs/product.md §4, §9; docs/protocol.md §5.1)", () => {
  it("is due one minute (60000 ms) before expiry", () => {
    expect(refreshDelayMs(iso(START + 2 * HOUR), START)).toBe(2 * HOUR - 60_000);
  });

  it("waits at most the longest timer (2^31-1 ms) for a far expiry, which would otherwise fire at once", () => {
    expect(refreshDelayMs(iso(START + 365 * 24 * HOUR), START)).toBe(2 ** 31 - 1);
  });

  it("polls after 12 hours (43200000 ms) when no expiry is known", () => {
    expect(CONNECTION_TOKEN_POLLING_INTERVAL_MS).toBe(43_200_000);
    expect(refreshDelayMs(null, START)).toBe(43_200_000);
  });

  it("a customer session refreshes its connection token 60 s before expiry and re-arms for the new expiry", async () => {
    const h = createHarness();
    let n = 0;
    h.service.on("CreateParticipantConnection", () => {
      n++;
      return {
        body: {
          Websocket: { Url: "wss://x", ConnectionExpiry: iso(START) },
          ConnectionCredentials: { ConnectionToken: `token-${n}`, Expiry: iso(START + n * HOUR) },
        },
      };
    });
    await h.session.connect();
    await vi.advanceTimersByTimeAsync(HOUR - 60_000 - 1);
    expect(n).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(n).toBe(2);
    expect(h.session.getChatDetails().connectionDetails?.connectionToken).toBe("token-2");
    // New expiry START + 2 h: next refresh at 2 h − 60 s.
    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(n).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(n).toBe(3);
    await flush();
    await h.session.sendMessage({ message: "x", contentType: "text/plain" });
    expect(h.service.calls("SendMessage")[0]!.headers["x-amz-bearer"]).toBe("token-3");
  });

  it("a failed refresh is retried at the same 12-hour interval", async () => {
    const h = createHarness();
    let n = 0;
    h.service.on("CreateParticipantConnection", () => {
      n++;
      if (n === 1) {
        return {
          body: {
            Websocket: { Url: "wss://x", ConnectionExpiry: iso(START) },
            ConnectionCredentials: { ConnectionToken: "t1", Expiry: iso(START + HOUR) },
          },
        };
      }
      return { status: 403, body: { __type: "AccessDeniedException" } };
    });
    await h.session.connect();
    await vi.advanceTimersByTimeAsync(HOUR - 60_000);
    expect(n).toBe(2);
    await vi.advanceTimersByTimeAsync(43_200_000 - 1);
    expect(n).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(n).toBe(3);
  });

  it("an agent session refreshes through getConnectionToken", async () => {
    let calls = 0;
    const h = createHarness({
      type: "AGENT",
      sharedManager: true,
      chatDetails: {
        contactId: "agent-refresh",
        participantId: "a",
        participantToken: "apt",
        getConnectionToken: () => {
          calls++;
          return Promise.resolve({
            chatTokenTransport: {
              participantToken: `agent-${calls}`,
              expiry: iso(START + 2 * HOUR),
            },
          });
        },
      },
    });
    await h.session.connect();
    await vi.advanceTimersByTimeAsync(2 * HOUR - 60_000);
    expect(calls).toBe(2);
    expect(h.session.getChatDetails().connectionDetails?.connectionToken).toBe("agent-2");
  });

  it("refresh stops once the participant disconnected", async () => {
    const h = createHarness();
    await h.session.connect();
    await h.session.disconnectParticipant();
    const before = h.service.calls("CreateParticipantConnection").length;
    await vi.advanceTimersByTimeAsync(100 * 365 * 24 * HOUR);
    expect(h.service.calls("CreateParticipantConnection").length).toBe(before);
  });
});
