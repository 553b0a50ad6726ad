/** An attachment in the transcript: its name, which downloads it, with the download's progress. */
import { useState } from "react";
import type { AttachmentInfo } from "../state/entries.js";
import { ExtraText, percent } from "../texts.js";

export interface AttachmentProps {
  attachment: AttachmentInfo;
  onDownload: (
    attachmentId: string,
    onProgress?: (fraction: number) => void,
  ) => Promise<Blob | null>;
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export function Attachment({ attachment, onDownload }: AttachmentProps) {
  const ready = attachment.status === "APPROVED";
  // null: not downloading; a number: the fraction received so far (0 until the client reports).
  const [received, setReceived] = useState<number | null>(null);
  const label = `${ExtraText.DOWNLOADING} ${attachment.name}`;
  return (
    <span className="attachment">
      <span aria-hidden="true">📎 </span>
      <button
        type="button"
        disabled={!ready || received !== null}
        onClick={() => {
          setReceived(0);
          void onDownload(attachment.attachmentId, setReceived).then((blob) => {
            setReceived(null);
            if (blob) save(blob, attachment.name);
          });
        }}
      >
        {attachment.name}
      </button>
      {received !== null && (
        <>
          {` ${percent(received)}`}
          <progress aria-label={label} max={1} value={received} />
        </>
      )}
    </span>
  );
}
