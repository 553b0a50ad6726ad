import { createProgressFetch, type FetchLike } from "@chat-widget/chat-client";
import type { Item } from "@chat-widget/protocol";
import { describe, expect, it, vi } from "vitest";
import { readSettings } from "../settings.js";
import { CHAT, agentMessage, fakeLogger } from "../test-support/fakes.js";
import { createClientAdapter } from "./client-adapter.js";
import type { ChatSessionLike } from "./client-adapter.js";

type Cb = (e: { data: Item }) => void;

function fakeChatSession(connectFails = false) {
  const callbacks: Record<string, Cb[]> = {};
  const on = (name: string) => (cb: Cb) => {
    (callbacks[name] ??= []).push(cb);
    return () => (callbacks[name] = callbacks[name]!.filter((c) => c !== cb));
  };
  const session = {
    connect: vi.fn(async () => {
      if (connectFails) throw new Error("boom");
      return { connectSuccess: true };
    }),
    onMessage: on("message"),
    onTyping: on("typing"),
    onEnded: on("ended"),
    onConnectionBroken: on("broken"),
    onConnectionEstablished: on("established"),
    sendMessage: vi.fn(async () => ({ data: { Id: "m1", AbsoluteTime: "t" } })),
    sendEvent: vi.fn(async () => ({})),
    sendAttachment: vi.fn(async () => ({})),
    downloadAttachment: vi.fn(async () => new Blob(["x"])),
    getTranscript: vi.fn(async () => ({
      data: { Transcript: [agentMessage("old")], NextToken: "n2" },
    })),
    disconnectParticipant: vi.fn(async () => ({})),
  };
  const ChatSession = {
    setGlobalConfig: vi.fn<ChatSessionLike["setGlobalConfig"]>(),
    create: vi.fn<ChatSessionLike["create"]>(() => session),
  };
  const emit = (name: string, data: Item) => callbacks[name]?.forEach((cb) => cb({ data }));
  return { ChatSession, session, emit, callbacks };
}

const settings = readSettings(
  { src: "http://127.0.0.1:8080/widget/chat-widget.js", dataset: {} },
  "http://127.0.0.1:8080/",
);
const handlers = () => ({
  onMessage: vi.fn(),
  onTyping: vi.fn(),
  onEnded: vi.fn(),
  onConnectionBroken: vi.fn(),
  onConnectionEstablished: vi.fn(),
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
    const f = fakeChatSession(true);
    const logger = fakeLogger();
    await expect(
      createClientAdapter(f.ChatSession, settings, logger).connect(CHAT, handlers()),
    ).rejects.toThrow("boom");
    expect(logger.error).toHaveBeenCalledWith("Unable to connect.", expect.any(Error));
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
    const onSession = vi.fn(() => stop);
    const adapter = createClientAdapter(f.ChatSession, settings, fakeLogger(), { onSession });
    const c = await adapter.connect(CHAT, handlers());
    expect(onSession).toHaveBeenCalledWith(f.session);
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

  it("the session's fetch is a progress fetch: the visitor sees the upload's bytes sent and the download's bytes received", async () => {
    const f = fakeChatSession();
    let sessionFetch: FetchLike | undefined;
    f.ChatSession.create.mockImplementation((args) => {
      sessionFetch = args.env?.fetch;
      return f.session;
    });
    let xhr: { upload: { onprogress: (e: ProgressEventInit) => void }; onload: () => void };
    const fakeXhr = () => {
      xhr = {
        upload: { onprogress: () => {} },
        onload: () => {},
        open: vi.fn(),
        setRequestHeader: vi.fn(),
        send: vi.fn(),
        status: 200,
      } as never;
      return xhr as unknown as XMLHttpRequest;
    };
    const base = vi.fn(
      async () => new Response(new Blob(["abcd"]), { headers: { "content-length": "4" } }),
    );
    const adapter = createClientAdapter(f.ChatSession, settings, fakeLogger(), {
      progressFetch: () => createProgressFetch(base, fakeXhr),
    });
    const c = await adapter.connect(CHAT, handlers());
    expect(sessionFetch).toBeTypeOf("function");
    // The client's upload: start, PUT to the signed URL (through XMLHttpRequest), complete.
    f.session.sendAttachment.mockImplementation(async () => {
      const put = sessionFetch!("http://127.0.0.1/s3/put", { method: "PUT", body: "x" });
      xhr.upload.onprogress({ loaded: 25, total: 100, lengthComputable: true });
      xhr.upload.onprogress({ loaded: 75, total: 100, lengthComputable: true });
      xhr.onload();
      await put;
      return {};
    });
    const sent = vi.fn();
    await c.sendAttachment(new File(["x"], "a.pdf", { type: "application/pdf" }), sent);
    expect(sent.mock.calls).toEqual([[0], [0.25], [0.75], [1], [1]]);
    // The client's download: GET of the signed URL, read chunk by chunk.
    f.session.downloadAttachment.mockImplementation(async () => {
      const response = await sessionFetch!("http://127.0.0.1/s3/get", { method: "GET" });
      return response.blob();
    });
    const received = vi.fn();
    const blob = await c.downloadAttachment("att-1", received);
    expect(await blob.text()).toBe("abcd");
    expect(received.mock.calls[0]).toEqual([0]);
    expect(received.mock.calls.at(-1)).toEqual([1]);
    // After a transfer its listener is let go: a later download without one reports to no one.
    const calls = received.mock.calls.length;
    await c.downloadAttachment("att-2");
    expect(received).toHaveBeenCalledTimes(calls);
  });
});
