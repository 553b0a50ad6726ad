/** Files the advisor sends and receives: what may be sent, and handing a download to the browser. */
import { ATTACHMENT_CONTENT_TYPES, Limits } from "@chat-widget/protocol";

/** Why a file cannot be sent (the hosted service's types and 20 MB limit, docs/decisions.md #8), or null. */
export function attachmentProblem(file: {
  name: string;
  type: string;
  size: number;
}): string | null {
  if (!ATTACHMENT_CONTENT_TYPES.includes(file.type))
    return `${file.name} cannot be sent: this type of file is not accepted.`;
  if (file.size > Limits.ATTACHMENT_MAX_BYTES)
    return `${file.name} cannot be sent: files must be at most 20 MB.`;
  if (file.size === 0) return `${file.name} cannot be sent: the file is empty.`;
  return null;
}

/** Hand a downloaded file to the browser under its name. */
export function saveBlob(blob: Blob, name: string): void {
  if (typeof document === "undefined" || typeof URL.createObjectURL !== "function") return;
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.rel = "noopener";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
