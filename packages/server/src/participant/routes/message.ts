import {
  ContentType,
  Limits,
  ParticipantPath,
  SEND_MESSAGE_CONTENT_TYPES,
  type SendMessageRequest,
  type SendMessageResponse,
} from "@chat-widget/protocol";
import type { FastifyInstance } from "fastify";
import { Errors } from "../../errors.js";
import { authHook, callerOf } from "../auth.js";
import type { ParticipantContext } from "../context.js";
import { messageBody } from "../schemas.js";

const MAX_CHARS: Record<string, number> = {
  [ContentType.TEXT_PLAIN]: Limits.TEXT_CONTENT_MAX,
  [ContentType.TEXT_MARKDOWN]: Limits.TEXT_CONTENT_MAX,
  [ContentType.APPLICATION_JSON]: Limits.JSON_CONTENT_MAX,
  [ContentType.INTERACTIVE_RESPONSE]: Limits.INTERACTIVE_RESPONSE_MAX,
};

/** The content rules of SendMessage (docs/protocol.md §1.4). */
export function checkMessage(body: SendMessageRequest, supported: string[]): void {
  const type = body.ContentType;
  if (!SEND_MESSAGE_CONTENT_TYPES.includes(type)) {
    throw Errors.validation(`ContentType ${type} is not supported by SendMessage.`);
  }
  if (type !== ContentType.TEXT_PLAIN && !supported.includes(type)) {
    throw Errors.validation(`ContentType ${type} is not enabled for this chat.`);
  }
  const max = MAX_CHARS[type] ?? Limits.CONTENT_MAX;
  if (body.Content.length > max) {
    throw Errors.validation(`Content of type ${type} must be at most ${max} characters.`);
  }
  if (Buffer.byteLength(body.Content, "utf8") > Limits.CONTENT_MAX) {
    throw Errors.validation(`Content must be at most ${Limits.CONTENT_MAX} bytes.`);
  }
}

/** SendMessage: committed, then delivered to every participant including the sender. */
export function registerMessage(app: FastifyInstance, ctx: ParticipantContext): void {
  app.post<{ Body: SendMessageRequest }>(
    ParticipantPath.SendMessage,
    { preValidation: authHook(ctx, "connection"), schema: { body: messageBody } },
    async (request): Promise<SendMessageResponse> => {
      const { participant, contact } = callerOf(request);
      checkMessage(request.body, contact.supportedContentTypes);
      const item = await ctx.deps.centre.postMessage(contact.contactId, participant.participantId, {
        contentType: request.body.ContentType,
        content: request.body.Content,
        ...(request.body.ClientToken ? { clientToken: request.body.ClientToken } : {}),
      });
      return { Id: item.Id, AbsoluteTime: item.AbsoluteTime };
    },
  );
}
