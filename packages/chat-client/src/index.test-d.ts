import { describe, expectTypeOf, it } from "vitest";
import type { Item } from "@chat-widget/protocol";
import connectDefault, {
  ChatSession,
  LogLevel,
  NetworkLinkStatus,
  SessionTypes,
  connect,
  type ChatEvent,
  type ChatResult,
  type ChatDetailsSnapshot,
  type ConnectResult,
  type ConnectionStatus,
  type MessageProcessingStatus,
  type RequestError,
  type TranscriptUpdate,
  type Unsubscribe,
} from "./index.js";

type Session = ReturnType<typeof ChatSession.create>;

describe("public types", () => {
  it("onTranscriptUpdated hands out the transcript and where older history continues (chatjs 5)", () => {
    expectTypeOf<Session["onTranscriptUpdated"]>()
      .parameter(0)
      .parameter(0)
      .toEqualTypeOf<ChatEvent<TranscriptUpdate>>();
    expectTypeOf<TranscriptUpdate["previousTranscriptNextToken"]>().toEqualTypeOf<string | null>();
    expectTypeOf<
      NonNullable<TranscriptUpdate["transcript"][number]["MessageMetadata"]>["Status"]
    >().toEqualTypeOf<"SENDING" | "SENT" | "DELIVERED" | "READ" | "FAILED" | undefined>();
    expectTypeOf<MessageProcessingStatus>().toEqualTypeOf<"PROCESSING" | "FAILED" | "REJECTED">();
  });

  it("ChatSession.create takes chatDetails, a session type, options and an optional websocket manager", () => {
    expectTypeOf(ChatSession.create).parameter(0).toHaveProperty("chatDetails");
    expectTypeOf<Parameters<typeof ChatSession.create>[0]["type"]>().toEqualTypeOf<
      "AGENT" | "CUSTOMER" | undefined
    >();
    expectTypeOf(ChatSession.create).returns.toEqualTypeOf<ChatSession>();
    // @ts-expect-error chatDetails is required
    ChatSession.create({ type: "CUSTOMER" });
    // @ts-expect-error only AGENT and CUSTOMER are session types
    ChatSession.create({ chatDetails: {}, type: "VISITOR" });
  });

  it("setGlobalConfig accepts region, endpoint, features, throttleTime, reconnect and loggerConfig", () => {
    ChatSession.setGlobalConfig({
      region: "eu-west-2",
      endpoint: "http://127.0.0.1:8080",
      features: { messageReceipts: { shouldSendMessageReceipts: true, throttleTime: 5000 } },
      throttleTime: 5000,
      reconnect: true,
      loggerConfig: { level: LogLevel.DEBUG, customizedLogger: console },
    });
    // @ts-expect-error unknown config keys are rejected
    ChatSession.setGlobalConfig({ regionn: "x" });
  });

  it("log levels, session types and network-link statuses are literal constants", () => {
    expectTypeOf(LogLevel.ADVANCED_LOG).toEqualTypeOf<50>();
    expectTypeOf(SessionTypes.CUSTOMER).toEqualTypeOf<"CUSTOMER">();
    expectTypeOf(ChatSession.SessionTypes).toEqualTypeOf(SessionTypes);
    expectTypeOf(NetworkLinkStatus.Broken).toEqualTypeOf<"Broken">();
    expectTypeOf<NetworkLinkStatus>().toEqualTypeOf<
      "NeverEstablished" | "Establishing" | "Established" | "Broken"
    >();
  });

  it("the namespace object works like chatjs's connect.ChatSession", () => {
    expectTypeOf(connect.ChatSession).toEqualTypeOf(ChatSession);
    expectTypeOf(connectDefault).toEqualTypeOf(connect);
  });

  it("every subscription returns an unsubscribe and receives { data, chatDetails }", () => {
    expectTypeOf<Session["onMessage"]>().returns.toEqualTypeOf<Unsubscribe>();
    expectTypeOf<Session["onMessage"]>().parameter(0).parameter(0).toEqualTypeOf<ChatEvent<Item>>();
    expectTypeOf<ChatEvent<Item>["chatDetails"]>().toEqualTypeOf<ChatDetailsSnapshot>();
    expectTypeOf<Session["onEnded"]>().parameter(0).parameter(0).toEqualTypeOf<ChatEvent<null>>();
    expectTypeOf<Session["onConnectionAcknowledged"]>().returns.toEqualTypeOf<Unsubscribe>();
  });

  it("operations resolve typed results", () => {
    expectTypeOf<Session["connect"]>().returns.resolves.toEqualTypeOf<ConnectResult>();
    expectTypeOf<Awaited<ReturnType<Session["sendMessage"]>>>().toMatchTypeOf<
      ChatResult<{ Id: string; AbsoluteTime: string }>
    >();
    expectTypeOf<
      Awaited<ReturnType<Session["getTranscript"]>>["data"]["Transcript"]
    >().toEqualTypeOf<Item[]>();
    expectTypeOf<Session["downloadAttachment"]>().returns.resolves.toEqualTypeOf<Blob>();
    expectTypeOf<Session["getConnectionStatus"]>().returns.toEqualTypeOf<ConnectionStatus>();
    expectTypeOf<Session["getNetworkLinkStatus"]>().returns.toEqualTypeOf<NetworkLinkStatus>();
  });

  it("sendMessage requires message and contentType", () => {
    const session = {} as Session;
    // @ts-expect-error contentType is required
    void session.sendMessage({ message: "hi" });
  });

  it("request errors carry type, message, stack lines and statusCode", () => {
    expectTypeOf<RequestError>().toMatchTypeOf<{
      type: string;
      message: string;
      stack: string[];
      statusCode?: number;
    }>();
  });
});
