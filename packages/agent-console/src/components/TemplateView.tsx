/**
 * An interactive template the bot sent (docs/protocol.md §6), as the advisor reads it: its kind,
 * title and subtitle, and what the visitor could choose (list options, time slots, a carousel's
 * cards). Read-only: the advisor sees what was offered, the visitor's choice follows as a message.
 * Images are not fetched; their descriptions are shown.
 */
import { checkTemplate, type Template, type TimeSlot } from "@chat-widget/protocol";
import { MessageText } from "./MessageText.js";

const KIND: Record<Template["templateType"], string> = {
  ListPicker: "List",
  Panel: "Panel",
  QuickReply: "Quick replies",
  TimePicker: "Time picker",
  Carousel: "Carousel",
};

/** The template in an interactive message, or null when it is none we know. */
export function parseTemplate(content: string | undefined): Template | null {
  if (content === undefined) return null;
  const checked = checkTemplate(content);
  return "template" in checked ? checked.template : null;
}

const slotText = (slot: TimeSlot): string => {
  const start = new Date(slot.date);
  const day = start.toLocaleDateString([], { weekday: "short", day: "numeric", month: "short" });
  const at = start.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return `${day}, ${at} (${slot.duration} min)`;
};

interface ListContent {
  title: string;
  subtitle?: string;
  imageDescription?: string;
  elements: { title: string; subtitle?: string }[];
}

function Options({ content }: { content: ListContent }) {
  return (
    <>
      <MessageText text={content.title} markdown />
      {content.subtitle && <div className="subtitle">{content.subtitle}</div>}
      {content.imageDescription && <div className="image">🖼 {content.imageDescription}</div>}
      <ul className="options">
        {content.elements.map((e, i) => (
          <li key={i}>
            {e.title}
            {e.subtitle && <span className="subtitle"> — {e.subtitle}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

export function TemplateView({ template }: { template: Template }) {
  const kind = <div className="template-kind">{KIND[template.templateType]}</div>;
  if (template.templateType === "TimePicker") {
    const c = template.data.content;
    return (
      <div className="picker" data-template={template.templateType}>
        {kind}
        <MessageText text={c.title} markdown />
        {c.subtitle && <div className="subtitle">{c.subtitle}</div>}
        <ul className="options">
          {c.timeslots.map((slot, i) => (
            <li key={i}>
              <time dateTime={slot.date}>{slotText(slot)}</time>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (template.templateType === "Carousel") {
    const c = template.data.content;
    return (
      <div className="picker" data-template={template.templateType}>
        {kind}
        <MessageText text={c.title} markdown />
        <ol className="cards">
          {c.elements.map((card) => (
            <li key={card.templateIdentifier} className="card">
              <Options content={card.data.content} />
            </li>
          ))}
        </ol>
      </div>
    );
  }
  return (
    <div className="picker" data-template={template.templateType}>
      {kind}
      <Options content={template.data.content} />
    </div>
  );
}
