/** What the widget saves as files (downloads), caught at the anchor's click. */
import { vi } from "vitest";

/** The bytes and name of every file the widget saves (restore with vi.restoreAllMocks()). */
export function savedFiles() {
  const files: { name: string; blob: Blob }[] = [];
  const blobs: Blob[] = [];
  URL.createObjectURL = vi.fn((blob: Blob) => `blob:${blobs.push(blob)}`);
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    files.push({ name: this.download, blob: blobs[Number(this.href.slice(5)) - 1]! });
  });
  return files;
}
