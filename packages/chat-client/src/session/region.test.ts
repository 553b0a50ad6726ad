import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatSession } from "./chat-session.js";
import { FakeParticipantService } from "../test-support/fake-participant-service.js";
import { testEnv, useFakeClock } from "../test-support/harness.js";
import { FakeWebSocketManager } from "../test-support/fake-manager.js";

afterEach(() => vi.useRealTimers());

// No endpoint override is ever set in this file (the override cannot be cleared).
describe("default endpoint", () => {
  it("requests go to https://participant.connect.<region>.amazonaws.com of the session's region", async () => {
    useFakeClock();
    const service = new FakeParticipantService();
    const session = ChatSession.create({
      chatDetails: { contactId: "region-contact", participantId: "p", participantToken: "t" },
      type: "CUSTOMER",
      options: { region: "eu-west-2" },
      env: testEnv(service),
      webSocketManagerFactory: () => new FakeWebSocketManager(),
    });
    await session.connect();
    expect(service.requests[0]!.url).toBe(
      "https://participant.connect.eu-west-2.amazonaws.com/participant/connection",
    );
  });
});
