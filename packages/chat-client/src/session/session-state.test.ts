import { describe, expect, it } from "vitest";
import { recordingLogger } from "../test-support/harness.js";
import { SessionState } from "./session-state.js";

describe("the session's one state", () => {
  it("a chat that ended becomes active again when a connection is gained; each change is logged old -> new", () => {
    const log = recordingLogger();
    const state = new SessionState(log.logger);
    expect(state.current).toBe("active");
    state.setState("chatEnded");
    expect(state.hasChatEnded).toBe(true);
    state.setState("chatEnded");
    state.setState("active");
    expect(state.hasChatEnded).toBe(false);
    expect(log.texts()).toEqual(["Session active -> chatEnded", "Session chatEnded -> active"]);
  });

  it("a disconnected participant stays disconnected", () => {
    const state = new SessionState(recordingLogger().logger);
    state.setState("disconnected");
    state.setState("active");
    state.setState("chatEnded");
    expect(state.current).toBe("disconnected");
    expect(state.participantDisconnected).toBe(true);
    expect(state.hasChatEnded).toBe(false);
  });
});
