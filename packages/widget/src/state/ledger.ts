/**
 * Which items the widget has handled (each once, docs/decisions.md #5) and which of them are history:
 * after a reload, items up to the stored watermark were handled by the page before, so they
 * bring no receipt, no bot echo and no timer again, whichever path delivers them (docs/decisions.md #6).
 */
import type { Item } from "@chat-widget/protocol";

export class ItemLedger {
  private readonly seen = new Set<string>();
  /** AbsoluteTime of the latest item handled (kept in session storage with the chat). */
  handledUntil = "";
  /** Items up to this time are history; null on a fresh chat. */
  private replayUntil: string | null = null;

  /** Resume after a reload; a chat stored without a watermark treats all it had as history. */
  resumeFrom(handledUntil: string | undefined): void {
    this.replayUntil = handledUntil ?? "\uffff";
    this.handledUntil = handledUntil ?? "";
  }

  /** Record an item; null when it was handled already, else whether it is live. */
  admit(item: Item): { live: boolean; advanced: boolean } | null {
    const key = item.Id || `${item.ContentType ?? ""}|${item.AbsoluteTime}`;
    if (this.seen.has(key)) return null;
    this.seen.add(key);
    // A past chat's item, carried into a persistent chat (RelatedContactId), is history too.
    const live =
      item.RelatedContactId === undefined &&
      (this.replayUntil === null ||
        item.AbsoluteTime === "" ||
        item.AbsoluteTime > this.replayUntil);
    const advanced = item.AbsoluteTime > this.handledUntil;
    if (advanced) this.handledUntil = item.AbsoluteTime;
    return { live, advanced };
  }

  has(id: string): boolean {
    return this.seen.has(id);
  }

  /** An id the widget itself produced (its own sends). */
  markSeen(id: string): void {
    this.seen.add(id);
  }

  clear(): void {
    this.seen.clear();
    this.handledUntil = "";
    this.replayUntil = null;
  }
}
