/**
 * The rare views where the window shows them, each with what it shows until `chat-views.js`
 * has loaded: markdown as its plain text, an attachment as its name, nothing after an ending.
 */
import type { AttachmentProps } from "../lazy-views/Attachment.js";
import type { EndedActionsProps } from "../lazy-views/EndedActions.js";
import { useViews } from "../lazy-views/context.js";

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

export function LazyEndedActions(props: EndedActionsProps) {
  const views = useViews();
  return views ? <views.EndedActions {...props} /> : null;
}
