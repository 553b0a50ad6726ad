/**
 * The rare views where the window shows them, each with what it shows until `chat-views.js`
 * has loaded: markdown as its plain text, an attachment as its name, no transcript download.
 */
import type { AttachmentProps } from "../lazy-views/Attachment.js";
import { useViews } from "../lazy-views/context.js";
import type { TemplateProps } from "../lazy-views/templates/Template.js";
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

/** A bot's template once the views are here (until then nothing: the views load with the chat). */
export function LazyTemplate(props: TemplateProps) {
  const views = useViews();
  return views ? <views.Template {...props} /> : null;
}

/** The visitor's sent message: a choice as what was chosen once the views are here. */
export function LazyChoice({ text }: { text: string }) {
  const views = useViews();
  return views ? <views.Choice text={text} /> : <>{text}</>;
}
