/**
 * A bot's interactive message (docs/protocol.md §6.2–6.6): the five templates the hosted widget
 * renders, checked with its limits first. One the check refuses shows nothing (as before any
 * template support: the bot's next line still shows).
 */
import { checkTemplate } from "@chat-widget/protocol";
import { timeLocale } from "../../components/message-time.js";
import { useTexts } from "../../texts-context.js";
import { CarouselView } from "./Carousel.js";
import { ListTemplateView } from "./ListTemplate.js";
import { TimePickerView } from "./TimePicker.js";

export interface TemplateProps {
  /** The interactive message's Content (JSON). */
  content: string;
  /** Whether the bot waits for this choice (the latest template while the bot is active). */
  enabled: boolean;
  /** Called with what the choice sends as the visitor's message. */
  onChoose: (text: string) => void;
}

export function Template({ content, enabled, onChoose }: TemplateProps) {
  const t = useTexts();
  const checked = checkTemplate(content);
  if (!("template" in checked)) return null;
  const { template } = checked;
  const props = { enabled, onChoose };
  return (
    // dir="auto": the bot's words read in their own direction, whatever the widget's language.
    <div className={`template ${template.templateType}`} dir="auto">
      {template.templateType === "Carousel" ? (
        <CarouselView content={template.data.content} {...props} />
      ) : template.templateType === "TimePicker" ? (
        <TimePickerView
          content={template.data.content}
          locale={timeLocale(t.LANG, navigator.languages)}
          {...props}
        />
      ) : (
        <ListTemplateView type={template.templateType} content={template.data.content} {...props} />
      )}
    </div>
  );
}
