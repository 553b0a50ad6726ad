/** The harness (support/harness.js) as the tests call it in the page. */
import type { Item, StartChatResult } from "@chat-widget/protocol";
import type { Page } from "playwright-core";
import { startChatBody } from "../../../packages/server/test/client/support/http.js";

interface Harness {
  chat: {
    session: {
      sendMessage(args: {
        message: string;
        contentType: string;
      }): Promise<{ data: { Id: string } }>;
      sendEvent(args: {
        contentType: string;
        content?: string;
      }): Promise<{ data?: { Id?: string } }>;
      getTranscript(args: Record<string, unknown>): Promise<TranscriptResult>;
      disconnectParticipant(): Promise<unknown>;
    };
    sendFile(name: string, type: string, text: string): Promise<void>;
    download(attachmentId: string): Promise<{ text: string; size: number }>;
    start(
      origin: string,
      body: unknown,
      transcript?: boolean,
    ): Promise<{ details: StartChatResult; connectSuccess: boolean }>;
  };
}
export type PageWindow = Window & Harness;
export interface TranscriptResult {
  data: { Transcript: Item[]; InitialContactId: string; NextToken?: string };
}

/** Calls chatjs's getTranscript() (its defaults) until the transcript satisfies `done`. */
export async function waitForTranscript(
  page: Page,
  done: (items: Item[]) => boolean,
): Promise<TranscriptResult> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const result = await page.evaluate(() =>
      (window as unknown as PageWindow).chat.session.getTranscript({}),
    );
    if (done(result.data.Transcript) || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends a message through chatjs in the page; returns the item id the service gave it. */
export async function chatjsSend(page: Page, message: string): Promise<string> {
  return page.evaluate(
    async (text) =>
      (
        await (window as unknown as PageWindow).chat.session.sendMessage({
          message: text,
          contentType: "text/plain",
        })
      ).data.Id,
    message,
  );
}

/**
 * Start-chat on the gateway from the page (cross-origin), then chatjs create + connect; with
 * `transcript`, onTranscriptUpdated is subscribed first.
 */
export function startChatjsChat(
  page: Page,
  serverOrigin: string,
  displayName = "Customer",
  transcript = false,
): Promise<{ details: StartChatResult; connectSuccess: boolean }> {
  return page.evaluate(
    ([origin, body, withTranscript]) =>
      (window as unknown as PageWindow).chat.start(origin, body, withTranscript),
    [serverOrigin, startChatBody(displayName), transcript] as const,
  );
}
