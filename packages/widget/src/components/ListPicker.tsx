/** A bot interactive message: its title and clickable option titles (only while the bot is active). */
import type { ListPickerTemplate } from "@chat-widget/protocol";
import { LazyMarkdown } from "./lazy.js";

export interface ListPickerProps {
  template: ListPickerTemplate;
  enabled: boolean;
  onChoose: (title: string) => void;
}

export function ListPicker({ template, enabled, onChoose }: ListPickerProps) {
  const { title, subtitle, elements } = template.data.content;
  return (
    // dir="auto": the bot's words read in their own direction, whatever the widget's language.
    <div className="list-picker" dir="auto">
      <div className="title">
        <LazyMarkdown text={title} />
        {subtitle && <LazyMarkdown text={subtitle} />}
      </div>
      <ul>
        {elements.map((element, i) => (
          <li key={i}>
            <button
              type="button"
              className="option"
              dir="auto"
              disabled={!enabled}
              onClick={() => onChoose(element.title)}
            >
              {element.title}
              {element.subtitle && <span className="subtitle">{element.subtitle}</span>}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
