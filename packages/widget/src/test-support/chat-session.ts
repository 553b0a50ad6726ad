/**
 * A fake of the chat client's ChatSession for the real adapter. Its attachment calls make
 * the client's requests, in the client's order, through the fetch the adapter handed it
 * (`env.fetch`): start the upload, PUT the file, complete; GetAttachment, then GET its URL.
 */
import type { FetchLike } from "@chat-widget/chat-client";
import { ParticipantPath } from "@chat-widget/protocol";
import type { Item } from "@chat-widget/protocol";
import { vi } from "vitest";
import type { ChatSessionLike } from "../chat/client-adapter.js";
import { agentMessage } from "./fakes.js";

type Cb = (e: { data: Item }) => void;

/** `connectFails`: true rejects with a plain error; an object is the rejection itself. */
export function fakeChatSession(options: { connectFails?: boolean | object } = {}) {
  const callbacks: Record<string, Cb[]> = {};
  const on = (name: string) => (cb: Cb) => {
    (callbacks[name] ??= []).push(cb);
    return () => (callbacks[name] = callbacks[name]!.filter((c) => c !== cb));
  };
  let fetch: FetchLike | null = null;
  let endpoint = "";
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch!(`${endpoint}${path}`, {
      method: "POST",
      body: JSON.stringify(body),
    });
    return (await response.json()) as T;
  };
  const session = {
    connect: vi.fn(async () => {
      if (options.connectFails === true) throw new Error("boom");
      if (options.connectFails) throw options.connectFails;
      return { connectSuccess: true };
    }),
    onMessage: on("message"),
    onTyping: on("typing"),
    onReadReceipt: on("readReceipt"),
    onDeliveredReceipt: on("deliveredReceipt"),
    onEnded: on("ended"),
    onConnectionBroken: on("broken"),
    onConnectionEstablished: on("established"),
    onConnectionLost: on("lost"),
    sendMessage: vi.fn(async () => ({ data: { Id: "m1", AbsoluteTime: "t" } })),
    sendEvent: vi.fn(async () => ({})),
    sendAttachment: vi.fn(async ({ attachment }: { attachment: File }) => {
      if (!fetch) return {};
      const started = await post<{
        AttachmentId: string;
        UploadMetadata: { Url: string; HeadersToInclude: Record<string, string> };
      }>(ParticipantPath.StartAttachmentUpload, {
        ContentType: attachment.type,
        AttachmentSizeInBytes: attachment.size,
        AttachmentName: attachment.name,
      });
      const { Url, HeadersToInclude } = started.UploadMetadata;
      await fetch(Url, { method: "PUT", headers: HeadersToInclude, body: attachment });
      await post(ParticipantPath.CompleteAttachmentUpload, {
        AttachmentIds: [started.AttachmentId],
      });
      return { data: { AttachmentId: started.AttachmentId } };
    }),
    downloadAttachment: vi.fn(async ({ attachmentId }: { attachmentId: string }) => {
      if (!fetch) return new Blob(["x"]);
      const { Url } = await post<{ Url: string }>(ParticipantPath.GetAttachment, {
        AttachmentId: attachmentId,
      });
      return (await fetch(Url, { method: "GET" })).blob();
    }),
    getTranscript: vi.fn(async () => ({
      data: { Transcript: [agentMessage("old")], NextToken: "n2" },
    })),
    disconnectParticipant: vi.fn(async () => ({})),
  };
  const ChatSession = {
    setGlobalConfig: vi.fn<ChatSessionLike["setGlobalConfig"]>((config) => {
      endpoint = String(config.endpoint);
    }),
    create: vi.fn<ChatSessionLike["create"]>((args) => {
      fetch = args.env?.fetch ?? null;
      return session;
    }),
  };
  const emit = (name: string, data: Item) => callbacks[name]?.forEach((cb) => cb({ data }));
  /** A chat-ended item as the client delivers it: as a message, then its "ended" event (no data). */
  const endChat = (item: Item) => {
    emit("message", item);
    callbacks.ended?.forEach((cb) =>
      (cb as unknown as (e: { data: null }) => void)({ data: null }),
    );
  };
  return { ChatSession, session, emit, endChat, callbacks };
}
