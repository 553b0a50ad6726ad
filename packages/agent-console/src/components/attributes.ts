/** The contact attributes the console reads: the reported order number first. */
import { ORDER_NUMBER_ATTRIBUTE } from "@chat-widget/protocol";

export function orderNumberOf(attributes: Record<string, string>): string | null {
  const value = attributes[ORDER_NUMBER_ATTRIBUTE];
  return value && value.trim() ? value : null;
}
