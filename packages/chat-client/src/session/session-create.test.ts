import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatSession } from "./chat-session.js";
import { ChatClientError } from "../core/errors.js";
import { createHarness, flush } from "../test-support/harness.js";

afterEach(() => vi.useRealTimers());

const customer = { contactId: "c1", participantId: "p1", participantToken: "t1" };

function caught(fn: () => unknown): ChatClientError {
  try {
    fn();
  } catch (error) {
    return error as ChatClientError;
  }
  throw new Error("did not throw");
}

describe("ChatSession.create validation (docs/product.md §5)", () => {
  it('session type must be agent or customer; otherwise "Unkown value for session type, Allowed values are: ..."', () => {
    const error = caught(() =>
      ChatSession.create({ chatDetails: customer, type: "VISITOR" as never }),
    );
    expect(error).toBeInstanceOf(ChatClientError);
    expect(error.name).toBe("IllegalArgument");
    expect(error.message).toBe("Unkown value for session type, Allowed values are: AGENT,CUSTOMER");
  });

  it("chat details must be an object: {x} is not an object!", () => {
    const error = caught(() =>
      ChatSession.create({ chatDetails: "nope" as never, type: "CUSTOMER" }),
    );
    expect(error.name).toBe("IllegalArgument");
    expect(error.message).toBe("chatDetails is not an object!");
  });

  it("chat details need a non-empty contactId: {x} is not a non-empty string!", () => {
    const error = caught(() =>
      ChatSession.create({ chatDetails: { ...customer, contactId: "" }, type: "CUSTOMER" }),
    );
    expect(error.message).toBe("chatDetails.contactId is not a non-empty string!");
  });

  it("chat details need a non-empty participantId", () => {
    const error = caught(() =>
      ChatSession.create({
        chatDetails: { ...customer, participantId: undefined },
        type: "CUSTOMER",
      }),
    );
    expect(error.message).toBe("chatDetails.participantId is not a non-empty string!");
  });

  it('a customer session needs a participantToken: "participantToken was not provided for a customer session type"', () => {
    const error = caught(() =>
      ChatSession.create({
        chatDetails: { contactId: "c1", participantId: "p1" },
        type: "CUSTOMER",
      }),
    );
    expect(error.name).toBe("IllegalArgument");
    expect(error.message).toBe("participantToken was not provided for a customer session type");
  });

  it('an agent session needs a getConnectionToken function: "getConnectionToken was not a function"', () => {
    const error = caught(() => ChatSession.create({ chatDetails: customer, type: "AGENT" }));
    expect(error.name).toBe("IllegalArgument");
    expect(error.message).toBe("getConnectionToken was not a function");
  });

  it("a supplied websocket manager lacking a method the session uses is rejected with UnImplementedMethod", () => {
    const agent = { ...customer, getConnectionToken: () => Promise.reject(new Error("unused")) };
    const manager = { subscribeTopics() {}, onMessage() {} } as never;
    const error = caught(() =>
      ChatSession.create({ chatDetails: agent, type: "AGENT", websocketManager: manager }),
    );
    expect(error.name).toBe("UnImplementedMethod");
    expect(error.message).toBe("websocketManager.onConnectionGain is not implemented");
  });

  it("the session type defaults to AGENT, as chatjs", () => {
    expect(() => ChatSession.create({ chatDetails: customer })).toThrow(
      "getConnectionToken was not a function",
    );
  });

  it("chatDetails accept chatjs's spellings (ContactId, ParticipantId, ParticipantToken, initialContactId)", () => {
    const session = ChatSession.create({
      chatDetails: {
        ContactId: "c9",
        ParticipantId: "p9",
        ParticipantToken: "t9",
        initialContactId: "c0",
      },
      type: "CUSTOMER",
    });
    expect(session.getChatDetails()).toEqual({
      contactId: "c9",
      participantId: "p9",
      participantToken: "t9",
      initialContactId: "c0",
      connectionDetails: null,
    });
  });

  it("a customer's initialContactId defaults to its contactId", () => {
    const session = ChatSession.create({ chatDetails: customer, type: "CUSTOMER" });
    expect(session.getChatDetails().initialContactId).toBe("c1");
  });

  it("SessionTypes and log levels are exposed (DEBUG 10 … ADVANCED_LOG 50)", () => {
    expect(ChatSession.SessionTypes).toEqual({ AGENT: "AGENT", CUSTOMER: "CUSTOMER" });
    expect(ChatSession.LogLevel).toEqual({
      DEBUG: 10,
      INFO: 20,
      WARN: 30,
      ERROR: 40,
      ADVANCED_LOG: 50,
    });
  });
});

describe("setGlobalConfig", () => {
  afterEach(() => ChatSession.setGlobalConfig({ region: "us-west-2" }));

  it('a missing region is rejected with "Missing region in config"', () => {
    ChatSession.setGlobalConfig({ region: "" });
    expect(() => ChatSession.create({ chatDetails: customer, type: "CUSTOMER" })).toThrow(
      "Missing region in config",
    );
  });

  it("the logger must be an object with debug, info, warn and error functions", () => {
    const error = caught(() =>
      ChatSession.setGlobalConfig({
        loggerConfig: { customizedLogger: { debug() {}, info() {} } as never },
      }),
    );
    expect(error.name).toBe("ValueError");
    expect(error.message).toBe(
      "The logger must be an object with debug, info, warn and error functions",
    );
  });

  it("the endpoint override is used for participant requests (path prefix kept)", async () => {
    const h = createHarness({ endpoint: "http://127.0.0.1:8080/acps/" });
    await h.session.connect();
    await flush();
    expect(h.service.requests[0]!.url).toBe("http://127.0.0.1:8080/acps/participant/connection");
  });
});
