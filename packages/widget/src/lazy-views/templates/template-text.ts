/** A template as lines of the downloaded transcript: its title, then its options. */
import { checkTemplate } from "@chat-widget/protocol";
import type { Template } from "@chat-widget/protocol";
import { slotTime } from "./choice.js";

function lines(template: Template, locale: string): string[] {
  if (template.templateType === "TimePicker") {
    const { title, timeslots } = template.data.content;
    return [title, ...timeslots.map((s) => `- ${slotTime(s.date, locale)}`)];
  }
  if (template.templateType === "Carousel") {
    const { title, elements } = template.data.content;
    return [title, ...elements.flatMap((card) => lines(card, locale))];
  }
  const { title, elements } = template.data.content;
  return [title, ...elements.map((e) => `- ${e.title}`)];
}

/** The template's lines; one the check refuses as its raw JSON. */
export function templateText(content: string, locale: string): string {
  const checked = checkTemplate(content);
  return "template" in checked ? lines(checked.template, locale).join("\n") : content;
}
