import { afterEach, describe, expect, it, vi } from "vitest";
import { ContentType } from "@chat-widget/protocol";
import {
  createHarness,
  flush,
  recordingLogger,
  testEnv,
  useFakeClock,
} from "../test-support/harness.js";
import { ENDPOINT, FakeParticipantService } from "../test-support/fake-participant-service.js";
import { FakeWebSocketManager } from "../test-support/fake-manager.js";
import { ParticipantClient } from "../api/participant-client.js";
import { GlobalConfig } from "../core/global-config.js";
import { noopLogger, resolveEnv } from "../env.js";
import { ChatController } from "./chat-controller.js";
import { ConnectionRegistry } from "./connection-helper.js";

afterEach(() => vi.useRealTimers());

async function connected(options: Parameters<typeof createHarness>[0] = {}) {
  const h = createHarness(options);
  await h.session.connect();
  h.manager.gain();
  await flush();
  h.service.requests.length = 0;
  return h;
}

describe("rejected calls (docs/product.md §5, §8)", () => {
  it.each([
    "sendMessage",
    "sendEvent",
    "sendAttachment",
    "getTranscript",
    "downloadAttachment",
  ] as const)(
    '%s before connect is rejected "Failed to call X, No active connection" and logs "Cannot call X before calling connect()"',
    async (method) => {
      const h = createHarness();
      const call = (h.session[method] as (a: unknown) => Promise<unknown>)({});
      await expect(call).rejects.toThrow(`Failed to call ${method}, No active connection`);
      expect(h.log.entries).toContainEqual({
        level: "error",
        text: expect.stringContaining(`Cannot call ${method} before calling connect()`),
      });
      expect(h.service.requests).toHaveLength(0);
    },
  );

  it('after disconnecting the participant, later calls are rejected and log "Cannot call X when participant is disconnected"', async () => {
    const h = await connected();
    await h.session.disconnectParticipant();
    expect(h.service.calls("DisconnectParticipant")[0]!.body).toEqual({
      ClientToken: expect.any(String),
    });
    await expect(h.session.disconnectParticipant()).rejects.toThrow(
      "Failed to call disconnectParticipant, No active connection",
    );
    await expect(
      h.session.sendMessage({ message: "x", contentType: "text/plain" }),
    ).rejects.toThrow("Failed to call sendMessage, No active connection");
    expect(h.log.texts()).toContainEqual(
      expect.stringContaining("Cannot call sendMessage when participant is disconnected"),
    );
  });

  it("after disconnecting the participant, subscriptions are cleared and the connection ends", async () => {
    const h = await connected();
    const onMessage = vi.fn();
    h.session.onMessage(onMessage);
    await h.session.disconnectParticipant();
    expect(h.session.getConnectionStatus()).toBe("Ended");
    expect(h.manager.closed).toBe(1);
    h.manager.item(h.item());
    expect(onMessage).not.toHaveBeenCalled();
  });

  it("an unknown connection status is logged and the call rejected", async () => {
    useFakeClock();
    const service = new FakeParticipantService();
    const env = resolveEnv(testEnv(service));
    const { logger, texts } = recordingLogger();
    const registry = new ConnectionRegistry();
    const open = registry.open.bind(registry);
    registry.open = (request) =>
      Object.assign(open(request), { getStatus: () => "Sleeping" as never });
    const controller = new ChatController({
      sessionType: "CUSTOMER",
      chatDetails: {
        contactId: "c-unknown",
        participantId: "p",
        initialContactId: "c-unknown",
        participantToken: "t",
      },
      client: new ParticipantClient({ endpoint: ENDPOINT, env, logger: noopLogger }),
      env,
      logger: { ...logger, advancedLog() {} },
      config: new GlobalConfig(),
      registry,
      createWebSocketManager: () => new FakeWebSocketManager(),
    });
    await controller.connect();
    await expect(controller.getTranscript()).rejects.toThrow(
      "Failed to call getTranscript, No active connection",
    );
    expect(texts()).toContain("Unknown connection status: Sleeping");
  });

  it("request failures reject with type, message, stack, statusCode and the caller's metadata", async () => {
    const h = await connected();
    h.service.on("SendMessage", () => ({
      status: 403,
      body: { __type: "AccessDeniedException", message: "denied" },
    }));
    const error = await h.session
      .sendMessage({ message: "x", contentType: "text/plain", metadata: { n: 1 } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      type: "AccessDeniedException",
      message: "denied",
      statusCode: 403,
      metadata: { n: 1 },
    });
    expect(Array.isArray((error as { stack: unknown }).stack)).toBe(true);
  });
});

describe("sending (docs/product.md §5, docs/protocol.md §2.7)", () => {
  it("sendMessage requires a string message", async () => {
    const h = await connected();
    expect(() =>
      h.session.sendMessage({ message: 42 as never, contentType: "text/plain" }),
    ).toThrow(expect.objectContaining({ name: "IllegalArgument" }));
  });

  it("sendMessage requires a known content type", async () => {
    const h = await connected();
    expect(() => h.session.sendMessage({ message: "x", contentType: "text/html" })).toThrow(
      expect.objectContaining({
        name: "IllegalArgument",
        message: expect.stringContaining("contentType"),
      }),
    );
  });

  it("sendEvent requires a known content type", async () => {
    const h = await connected();
    expect(() => h.session.sendEvent({ contentType: "application/x-nope" })).toThrow(
      expect.objectContaining({ name: "IllegalArgument" }),
    );
  });

  it("a successful send resolves { data: body + $metadata, metadata }", async () => {
    const h = await connected();
    const result = await h.session.sendMessage({
      message: "hi",
      contentType: "text/markdown",
      metadata: "m",
    });
    expect(result).toEqual({
      data: {
        Id: expect.any(String),
        AbsoluteTime: "2025-01-01T10:00:00.000Z",
        $metadata: expect.objectContaining({ httpStatusCode: 200 }),
      },
      metadata: "m",
    });
    expect(h.service.calls("SendMessage")[0]!.body).toMatchObject({
      Content: "hi",
      ContentType: "text/markdown",
    });
  });

  it("typing is sent as a SendEvent without Content", async () => {
    const h = await connected();
    await h.session.sendEvent({ contentType: ContentType.TYPING });
    expect(h.service.calls("SendEvent")[0]!.body).toEqual({
      ClientToken: expect.any(String),
      ContentType: ContentType.TYPING,
    });
  });
});

describe("getTranscript defaults (docs/product.md §3)", () => {
  it("startPosition {}, scanDirection BACKWARD, sortOrder ASCENDING, maxResults 15", async () => {
    const h = await connected();
    await h.session.getTranscript();
    expect(h.service.calls("GetTranscript")[0]!.body).toEqual({
      MaxResults: 15,
      ScanDirection: "BACKWARD",
      SortOrder: "ASCENDING",
      StartPosition: {},
    });
  });

  it("optional nextToken, contactId and a camelCase startPosition are passed on", async () => {
    const h = await connected();
    await h.session.getTranscript({
      nextToken: "n",
      contactId: "c0",
      startPosition: { id: "i1" },
      maxResults: 5,
      scanDirection: "FORWARD",
      sortOrder: "DESCENDING",
    });
    expect(h.service.calls("GetTranscript")[0]!.body).toEqual({
      MaxResults: 5,
      ScanDirection: "FORWARD",
      SortOrder: "DESCENDING",
      StartPosition: { Id: "i1" },
      NextToken: "n",
      ContactId: "c0",
    });
  });
});

describe("ended flag and incoming items (docs/product.md §4)", () => {
  it("a chat-ended message goes to onMessage, then onEnded; it sets the ended flag and breaks the connection", async () => {
    const h = await connected();
    const order: string[] = [];
    h.session.onMessage(() => order.push("message"));
    h.session.onEnded(() => order.push("ended"));
    h.manager.item(
      h.item({ Type: "EVENT", ContentType: ContentType.CHAT_ENDED, Content: undefined }),
    );
    expect(order).toEqual(["message", "ended"]);
    expect(h.session.getConnectionStatus()).toBe("Ended");
    expect(h.manager.closed).toBe(1);
  });

  it("the controller ignores event sends once the chat has ended", async () => {
    const h = await connected();
    h.manager.item(
      h.item({ Type: "EVENT", ContentType: ContentType.CHAT_ENDED, Content: undefined }),
    );
    await h.session.sendEvent({ contentType: ContentType.TYPING });
    await h.session.sendMessageReceipt({ contentType: ContentType.READ_RECEIPT, messageId: "m1" });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.service.calls("SendEvent")).toHaveLength(0);
  });

  it("gaining a connection resets the ended flag", async () => {
    useFakeClock();
    const service = new FakeParticipantService();
    const manager = new FakeWebSocketManager();
    const env = resolveEnv(testEnv(service));
    const controller = new ChatController({
      sessionType: "CUSTOMER",
      chatDetails: {
        contactId: "c-flag",
        participantId: "p",
        initialContactId: "c-flag",
        participantToken: "t",
      },
      client: new ParticipantClient({ endpoint: ENDPOINT, env, logger: noopLogger }),
      env,
      logger: new GlobalConfig().logManager.getLogger("test"),
      config: new GlobalConfig(),
      registry: new ConnectionRegistry(),
      createWebSocketManager: () => manager,
    });
    await controller.connect();
    controller.hasChatEnded = true;
    manager.gain();
    expect(controller.hasChatEnded).toBe(false);
  });

  it("connection broken when the websocket manager fails to initialise", async () => {
    const h = createHarness();
    const broken = vi.fn();
    h.session.onConnectionBroken(broken);
    await h.session.connect();
    h.manager.initFailure();
    expect(broken).toHaveBeenCalledTimes(1);
    expect(h.session.getConnectionStatus()).toBe("Ended");
  });

  it("connection lost and deep heartbeat results reach their callbacks", async () => {
    const h = await connected();
    const lost = vi.fn();
    const ok = vi.fn();
    const bad = vi.fn();
    h.session.onConnectionLost(lost);
    h.session.onDeepHeartbeatSuccess(ok);
    h.session.onDeepHeartbeatFailure(bad);
    h.manager.lose();
    h.manager.heartbeat(true);
    h.manager.heartbeat(false);
    expect([lost.mock.calls.length, ok.mock.calls.length, bad.mock.calls.length]).toEqual([
      1, 1, 1,
    ]);
  });

  it("each subscription returns an unsubscribe", async () => {
    const h = await connected();
    const typing = vi.fn();
    const off = h.session.onTyping(typing);
    h.manager.item(h.item({ Type: "EVENT", ContentType: ContentType.TYPING, Content: undefined }));
    off();
    h.manager.item(h.item({ Type: "EVENT", ContentType: ContentType.TYPING, Content: undefined }));
    expect(typing).toHaveBeenCalledTimes(1);
  });

  it("an agent session drops its subscription after a transfer succeeded", async () => {
    const h = await connected({ type: "AGENT", sharedManager: true });
    const onMessage = vi.fn();
    h.session.onMessage(onMessage);
    h.manager.item(
      h.item({ Type: "EVENT", ContentType: ContentType.TRANSFER_SUCCEEDED, Content: undefined }),
    );
    h.manager.item(h.item());
    expect(onMessage).toHaveBeenCalledTimes(1);
  });
});

describe("attachments (docs/product.md §4)", () => {
  it("sending: request an upload, PUT the file with the returned headers, then complete with the attachment id", async () => {
    const h = await connected();
    const file = new File(["png-bytes"], "receipt.png", { type: "image/png" });
    const result = await h.session.sendAttachment({ attachment: file, metadata: "a" });
    const [start, put, complete] = h.service.requests;
    expect(start!.op).toBe("StartAttachmentUpload");
    expect(start!.body).toEqual({
      AttachmentName: "receipt.png",
      AttachmentSizeInBytes: 9,
      ClientToken: expect.any(String),
      ContentType: "image/png",
    });
    expect(put).toMatchObject({
      op: "other",
      method: "PUT",
      url: "https://upload.example.com/put",
      headers: { "Content-Type": "image/png" },
    });
    expect(put!.rawBody).toBe(file);
    expect(complete!.op).toBe("CompleteAttachmentUpload");
    expect(complete!.body).toEqual({
      AttachmentIds: [expect.stringMatching(/^att-/)],
      ClientToken: expect.any(String),
    });
    expect(result).toMatchObject({
      data: { AttachmentId: (complete!.body!.AttachmentIds as string[])[0] },
      metadata: "a",
    });
  });

  it("downloading: ask for the attachment URL, then fetch the file from it", async () => {
    const h = await connected();
    const blob = await h.session.downloadAttachment({ attachmentId: "att-1" });
    expect(h.service.requests.map((r) => [r.op, r.method, r.body])).toEqual([
      ["GetAttachment", "POST", { AttachmentId: "att-1" }],
      ["other", "GET", null],
    ]);
    expect(await blob.text()).toBe("file-bytes");
  });

  it("sendAttachment requires an attachment: {name} must be provided", async () => {
    const h = await connected();
    expect(() => h.session.sendAttachment({} as never)).toThrow("attachment must be provided");
  });
});
