/**
 * The rare views where the window shows them, each with what it shows until `chat-views.js`
 * has loaded: markdown as its plain text, an attachment as its name, no transcript download.
 */
import type { AttachmentProps } from "../lazy-views/Attachment.js";
import { useViews } from "../lazy-views/context.js";
import type { Entry } from "../state/entries.js";

export function LazyMarkdown({ text }: { text: string }) {
  const views = useViews();
  return views ? <views.Markdown text={text} /> : <div className="plain">{text}</div>;
}

export function LazyAttachment(props: AttachmentProps) {
  const views = useViews();
  if (views) return <views.Attachment {...props} />;
  return (
    <span className="attachment">
      <span aria-hidden="true">📎 </span>
      {props.attachment.name}
    </span>
  );
}

/** "Download transcript" once the views are here (until then the new chat alone is offered). */
export function LazyDownloadTranscript({ entries }: { entries: readonly Entry[] }) {
  const views = useViews();
  return views ? <views.DownloadTranscript entries={entries} /> : null;
}
