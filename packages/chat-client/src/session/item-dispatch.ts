/**
 * An incoming item, once deduplicated, to the session's typed events (docs/product.md §4): its own event
 * (or none), the acknowledgement, and the end of the chat or of an agent's transferred contact.
 */
import { ContentType, type Item } from "@chat-widget/protocol";
import { SessionTypes } from "./chat-details.js";
import { eventForItem } from "./event-mapping.js";
import type { ControllerDeps, EmitEvent } from "./session-context.js";
import type { SessionState } from "./session-state.js";

export interface ItemDispatch {
  deps: Pick<ControllerDeps, "chatDetails" | "sessionType">;
  state: SessionState;
  emit: EmitEvent;
  breakConnection: () => void;
}

export function dispatchItem(
  item: Item,
  { deps, state, emit, breakConnection }: ItemDispatch,
): void {
  const event = eventForItem(item, deps.chatDetails.participantId);
  if (!event) return;
  emit(event, item);
  if (item.ContentType === ContentType.CONNECTION_ACKNOWLEDGED)
    emit("connectionAcknowledged", item);
  if (item.ContentType === ContentType.CHAT_ENDED) {
    state.setState("chatEnded");
    emit("ended", null);
    breakConnection();
  }
  if (
    item.ContentType === ContentType.TRANSFER_SUCCEEDED &&
    deps.sessionType !== SessionTypes.CUSTOMER
  ) {
    breakConnection();
  }
}
