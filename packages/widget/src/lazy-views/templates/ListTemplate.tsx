/**
 * ListPicker, Panel and QuickReply (and a carousel's cards): a title, a subtitle and an image,
 * then the options as buttons; quick replies as a row of chips. Options are clickable only
 * while the bot waits for this choice.
 */
import type { ListTemplate } from "@chat-widget/protocol";
import { Markdown } from "../Markdown.js";

type Content = ListTemplate["data"]["content"];

/** An image from the template (https only: checkTemplate refused anything else). */
function Image({ src, alt }: { src?: string; alt?: string }) {
  return src ? <img className="template-image" src={src} alt={alt ?? ""} /> : null;
}

export interface ListTemplateProps {
  type: ListTemplate["templateType"];
  content: Content;
  enabled: boolean;
  /** Called with the option's title. */
  onChoose: (title: string) => void;
}

export function ListTemplateView({ type, content, enabled, onChoose }: ListTemplateProps) {
  const { title, subtitle, elements } = content;
  const chips = type === "QuickReply";
  return (
    <>
      <Image src={content.imageData} alt={content.imageDescription} />
      <div className="title">
        <Markdown text={title} />
        {subtitle && <Markdown text={subtitle} />}
      </div>
      <ul className={chips ? "chips" : undefined}>
        {elements.map((element, i) => (
          <li key={i}>
            <button
              type="button"
              className={chips ? "option chip" : "option"}
              dir="auto"
              disabled={!enabled}
              onClick={() => onChoose(element.title)}
            >
              {/* The option's title names the button: its image only illustrates it. */}
              <Image src={element.imageData} />
              {element.title}
              {element.subtitle && <span className="subtitle">{element.subtitle}</span>}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
