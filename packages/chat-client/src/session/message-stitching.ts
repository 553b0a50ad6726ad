/**
 * Streamed bot messages (docs/protocol.md §3.4.1): chunks share one Id; each in-order chunk yields
 * the text so far (AbsoluteTime of chunk 1); a first chunk other than 1 and out-of-order
 * chunks are ignored; the completed item carries the full text and replaces the chunks.
 */
import { ItemType, type Item } from "@chat-widget/protocol";

export const isStreamChunk = (item: Item): boolean =>
  item.Type === ItemType.MESSAGE && typeof item.MessageMetadata?.MessageCompleted === "boolean";

export class MessageStitcher {
  readonly #partial = new Map<string, { text: string; next: number; time: string }>();

  /** The item to deliver for this one, or null to ignore it. */
  accept(item: Item): Item | null {
    if (!isStreamChunk(item)) return item;
    const metadata = item.MessageMetadata!;
    if (metadata.MessageCompleted) {
      this.#partial.delete(item.Id);
      return item;
    }
    const progress = this.#partial.get(item.Id);
    if (!progress) {
      if (metadata.ChunkNumber !== 1) return null;
      this.#partial.set(item.Id, { text: item.Content ?? "", next: 2, time: item.AbsoluteTime });
      return item;
    }
    if (metadata.ChunkNumber !== progress.next) return null;
    progress.text += item.Content ?? "";
    progress.next += 1;
    return { ...item, Content: progress.text, AbsoluteTime: progress.time };
  }
}
