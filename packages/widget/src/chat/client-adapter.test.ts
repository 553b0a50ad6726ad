import { describe, expect, it, vi } from "vitest";
import { readSettings } from "../settings.js";
import { fakeAttachmentService } from "../test-support/attachment-service.js";
import { fakeChatSession } from "../test-support/chat-session.js";
import { CHAT, agentMessage, fakeLogger } from "../test-support/fakes.js";
import { createClientAdapter } from "./client-adapter.js";

const settings = readSettings(
  { src: "http://127.0.0.1:8080/widget/chat-widget.js", dataset: {} },
  "http://127.0.0.1:8080/",
);
const handlers = () => ({
  onMessage: vi.fn(),
  onTyping: vi.fn(),
  onReceipt: vi.fn(),
  onConnectionBroken: vi.fn(),
  onConnectionEstablished: vi.fn(),
  onConnectionLost: vi.fn(),
});

describe("the real adapter over the chat client", () => {
  it("sets the region and endpoint as global config, creates a CUSTOMER session and connects", async () => {
    const f = fakeChatSession();
    await createClientAdapter(f.ChatSession, settings, fakeLogger()).connect(CHAT, handlers());
    expect(f.ChatSession.setGlobalConfig).toHaveBeenCalledWith({
      region: "eu-west-2",
      endpoint: "http://127.0.0.1:8080",
    });
    expect(f.ChatSession.create).toHaveBeenCalledWith({
      chatDetails: CHAT,
      type: "CUSTOMER",
      options: { region: "eu-west-2" },
    });
    expect(f.session.connect).toHaveBeenCalledTimes(1);
  });

  it("'Unable to connect.' is logged when connect does not succeed", async () => {
    const f = fakeChatSession({ connectFails: true });
    const logger = fakeLogger();
    await expect(
      createClientAdapter(f.ChatSession, settings, logger).connect(CHAT, handlers()),
    ).rejects.toMatchObject({ message: "Unable to connect.", final: false });
    expect(logger.error).toHaveBeenCalledWith("Unable to connect.", expect.any(Error));
  });

  it("a connect the contact centre refused for good (403) is final; no answer, 429 and 5xx are not", async () => {
    const failure = (statusCode?: number) => ({
      connectSuccess: false,
      _debug: { reason: "createParticipantConnection failed", _debug: { statusCode } },
    });
    const final = async (statusCode?: number) => {
      const f = fakeChatSession({ connectFails: failure(statusCode) });
      const adapter = createClientAdapter(f.ChatSession, settings, fakeLogger());
      return adapter.connect(CHAT, handlers()).catch((e: { final: boolean }) => e.final);
    };
    expect(await final(403)).toBe(true);
    expect(await final(400)).toBe(true);
    expect(await final(429)).toBe(false);
    expect(await final(503)).toBe(false);
    expect(await final(undefined)).toBe(false);
  });

  it("maps the session's calls and events; dispose drops the subscriptions", async () => {
    const f = fakeChatSession();
    const h = handlers();
    const c = await createClientAdapter(f.ChatSession, settings, fakeLogger()).connect(CHAT, h);
    const m = agentMessage("hi");
    f.emit("message", m);
    f.emit("typing", m);
    expect(h.onMessage).toHaveBeenCalledWith(m);
    expect(h.onTyping).toHaveBeenCalledWith(m);
    f.emit("readReceipt", m);
    f.emit("deliveredReceipt", m);
    expect(h.onReceipt).toHaveBeenCalledTimes(2);
    f.emit("lost", m);
    f.emit("established", m);
    expect(h.onConnectionLost).toHaveBeenCalledTimes(1);
    expect(h.onConnectionEstablished).toHaveBeenCalledTimes(1);
    expect(await c.sendMessage("x", "text/plain")).toEqual({ Id: "m1", AbsoluteTime: "t" });
    expect(f.session.sendMessage).toHaveBeenCalledWith({ message: "x", contentType: "text/plain" });
    await c.sendEvent("typing-type");
    expect(f.session.sendEvent).toHaveBeenCalledWith({ contentType: "typing-type" });
    const progress = vi.fn();
    const file = new File(["a"], "a.pdf", { type: "application/pdf" });
    await c.sendAttachment(file, progress);
    expect(f.session.sendAttachment).toHaveBeenCalledWith({ attachment: file });
    expect(progress.mock.calls).toEqual([[0], [1]]);
    await c.downloadAttachment("att-1");
    expect(f.session.downloadAttachment).toHaveBeenCalledWith({ attachmentId: "att-1" });
    const page = await c.getTranscript({
      maxResults: 100,
      scanDirection: "BACKWARD",
      sortOrder: "ASCENDING",
    });
    expect(page.NextToken).toBe("n2");
    expect(f.session.getTranscript).toHaveBeenCalledWith({
      maxResults: 100,
      scanDirection: "BACKWARD",
      sortOrder: "ASCENDING",
      startPosition: {},
    });
    await c.disconnect();
    expect(f.session.disconnectParticipant).toHaveBeenCalledTimes(1);
    c.dispose();
    f.emit("message", m);
    expect(h.onMessage).toHaveBeenCalledTimes(1);
  });

  it("dispose lets go of the session: the websocket is closed, the participant is not disconnected", async () => {
    const f = fakeChatSession();
    const manager = { closeWebSocket: vi.fn(), terminate: vi.fn() };
    f.ChatSession.create.mockImplementation((args) => {
      args.webSocketManagerFactory?.({} as never);
      return f.session;
    });
    const adapter = createClientAdapter(f.ChatSession, settings, fakeLogger(), {
      webSocketManagerFactory: () => manager,
    });
    const c = await adapter.connect(CHAT, handlers());
    c.dispose();
    c.dispose();
    expect(manager.closeWebSocket).toHaveBeenCalledTimes(1);
    expect(manager.terminate).toHaveBeenCalledTimes(1);
    expect(f.session.disconnectParticipant).not.toHaveBeenCalled();
  });

  it("each new session is handed to onSession (telemetry); what it returns runs on dispose; its failure only logs", async () => {
    const f = fakeChatSession();
    const stop = vi.fn();
    const onSession = vi.fn((_session: unknown, _token: string) => stop);
    const adapter = createClientAdapter(f.ChatSession, settings, fakeLogger(), { onSession });
    const c = await adapter.connect(CHAT, handlers());
    expect(onSession).toHaveBeenCalledWith(f.session, CHAT.ParticipantToken);
    expect(stop).not.toHaveBeenCalled();
    c.dispose();
    expect(stop).toHaveBeenCalledTimes(1);
    const logger = fakeLogger();
    const throwing = createClientAdapter(f.ChatSession, settings, logger, {
      onSession: () => {
        throw new Error("telemetry down");
      },
    });
    await expect(throwing.connect(CHAT, handlers())).resolves.toBeTruthy();
    expect(logger.warn).toHaveBeenCalled();
  });

  it("the session's fetch is a progress fetch: each upload reports its own bytes sent, however two uploads interleave", async () => {
    const f = fakeChatSession();
    const service = fakeAttachmentService();
    const adapter = createClientAdapter(f.ChatSession, settings, fakeLogger(), {
      progressFetch: service.progressFetch,
    });
    const c = await adapter.connect(CHAT, handlers());
    const a = vi.fn();
    const b = vi.fn();
    const sendingA = c.sendAttachment(new File(["a"], "a.pdf", { type: "application/pdf" }), a);
    const sendingB = c.sendAttachment(new File(["b"], "b.pdf", { type: "application/pdf" }), b);
    await vi.waitFor(() => expect(service.uploading()).toEqual(["a.pdf", "b.pdf"]));
    service.upload("a.pdf").sent(10, 100);
    service.upload("b.pdf").sent(60, 100);
    service.upload("a.pdf").sent(30, 100);
    service.upload("b.pdf").finish();
    await sendingB;
    service.upload("a.pdf").sent(90, 100);
    service.upload("a.pdf").finish();
    await sendingA;
    expect(a.mock.calls.flat()).toEqual([0, 0.1, 0.3, 0.9, 1, 1]);
    expect(b.mock.calls.flat()).toEqual([0, 0.6, 1, 1]);
  });

  it("a download reports its own bytes received while an upload runs beside it", async () => {
    const f = fakeChatSession();
    const service = fakeAttachmentService();
    const adapter = createClientAdapter(f.ChatSession, settings, fakeLogger(), {
      progressFetch: service.progressFetch,
    });
    const c = await adapter.connect(CHAT, handlers());
    const sent = vi.fn();
    const received = vi.fn();
    const file = service.download("att-9", 40);
    const sending = c.sendAttachment(new File(["a"], "a.pdf", { type: "application/pdf" }), sent);
    const downloading = c.downloadAttachment("att-9", received);
    await vi.waitFor(() => expect(service.downloading()).toEqual(["att-9"]));
    await vi.waitFor(() => expect(service.uploading()).toEqual(["a.pdf"]));
    file.received(10);
    service.upload("a.pdf").sent(50, 100);
    file.received(20);
    service.upload("a.pdf").sent(75, 100);
    file.received(10);
    file.end();
    expect((await downloading).size).toBe(40);
    service.upload("a.pdf").finish();
    await sending;
    expect(received.mock.calls.flat()).toEqual([0, 0.25, 0.75, 1]);
    expect(sent.mock.calls.flat()).toEqual([0, 0.5, 0.75, 1, 1]);
    // A transfer's listener is let go with it: a later download without one reports to no one.
    const again = service.download("att-10", 4);
    const later = c.downloadAttachment("att-10");
    await vi.waitFor(() => expect(service.downloading()).toContain("att-10"));
    again.received(4);
    again.end();
    await later;
    expect(received).toHaveBeenCalledTimes(4);
  });
});
