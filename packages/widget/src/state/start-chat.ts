/**
 * Click with no chat, before connecting (docs/product.md §4, §7): verify the snippet, start the chat,
 * report the order number from the jwt's attributes. Any step that is not ok throws.
 */
import type { StartChatResult } from "@chat-widget/protocol";
import type { Gateway } from "../gateway.js";
import { decodeJwtAttributes } from "../jwt.js";
import type { Logger } from "../logger.js";

export async function startChat(
  gateway: Gateway,
  jwt: string | undefined,
  logger: Logger,
): Promise<StartChatResult> {
  if (!(await gateway.verify())) throw new Error("The widget service did not verify the snippet");
  const chat = await gateway.startChat(jwt);
  // An invalid jwt is logged and no order report is made; the chat goes on.
  const attributes = decodeJwtAttributes(jwt, logger);
  if (attributes !== null && !(await gateway.reportOrderNumber(chat, attributes))) {
    throw new Error("The order-number report was not ok");
  }
  return chat;
}
