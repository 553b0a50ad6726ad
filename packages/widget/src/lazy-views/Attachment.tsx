/**
 * An attachment in the transcript: its name, which downloads it, with the download's progress;
 * a JPEG or PNG also shows a thumbnail (issue 24).
 */
import { useEffect, useState } from "react";
import type { AttachmentInfo } from "../state/entries.js";
import { useTexts } from "../texts-context.js";
import { percent } from "../texts.js";
import { saveFile } from "./save-file.js";

type Download = (
  attachmentId: string,
  onProgress?: (fraction: number) => void,
) => Promise<Blob | null>;

export interface AttachmentProps {
  attachment: AttachmentInfo;
  onDownload: Download;
  /** An image's bytes for its thumbnail (null: none), fetched once a chat. */
  onThumbnail: (attachmentId: string) => Promise<Blob | null>;
}

/** The image types shown as a thumbnail; anything else (SVG, HTML, …) is only a file to save. */
const THUMBNAIL_TYPES = ["image/jpeg", "image/png"];

/**
 * The thumbnail of an approved JPEG or PNG: fetched through the signed URL (once a chat), shown
 * as an inert `<img>` of the type the chat gave it (never opened as a document), its object URL
 * revoked when the entry goes. Returns the image's bytes too, so saving it fetches nothing.
 */
function useThumbnail(
  { attachmentId, contentType, status }: AttachmentInfo,
  onThumbnail: AttachmentProps["onThumbnail"],
): { url: string; blob: Blob } | null {
  const [thumbnail, setThumbnail] = useState<{ url: string; blob: Blob } | null>(null);
  const wanted = status === "APPROVED" && THUMBNAIL_TYPES.includes(contentType);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    let url = "";
    void onThumbnail(attachmentId).then((blob) => {
      if (!live || !blob) return;
      const image = new Blob([blob], { type: contentType });
      url = URL.createObjectURL(image);
      setThumbnail({ url, blob: image });
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [wanted, attachmentId, contentType, onThumbnail]);
  return thumbnail;
}

export function Attachment({ attachment, onDownload, onThumbnail }: AttachmentProps) {
  const ready = attachment.status === "APPROVED";
  // null: not downloading; a number: the fraction received so far (0 until the client reports).
  const [received, setReceived] = useState<number | null>(null);
  const thumbnail = useThumbnail(attachment, onThumbnail);
  const label = `${useTexts().DOWNLOADING} ${attachment.name}`;
  const download = () => {
    if (thumbnail) return saveFile(thumbnail.blob, attachment.name);
    setReceived(0);
    void onDownload(attachment.attachmentId, setReceived).then((blob) => {
      setReceived(null);
      if (blob) saveFile(blob, attachment.name);
    });
  };
  return (
    <span className="attachment">
      {/* alt="": the file's name is the button beside it; a screen reader hears it once. */}
      {thumbnail && <img className="thumbnail" src={thumbnail.url} alt="" />}
      <span aria-hidden="true">📎 </span>
      <button type="button" disabled={!ready || received !== null} onClick={download}>
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
