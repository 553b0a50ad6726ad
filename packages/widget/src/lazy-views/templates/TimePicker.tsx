/**
 * TimePicker: the slots grouped by day, each day and time in the visitor's language and time
 * zone, each slot a button named by its time and length. Choosing sends the slot's `date`.
 */
import { useId } from "react";
import type { TimePickerTemplate } from "@chat-widget/protocol";
import { formatTime } from "../../components/message-time.js";
import { Markdown } from "../Markdown.js";

type Content = TimePickerTemplate["data"]["content"];

export interface TimePickerProps {
  content: Content;
  locale: string;
  enabled: boolean;
  onChoose: (date: string) => void;
}

interface Day {
  label: string;
  slots: Content["timeslots"];
}

function byDay(slots: Content["timeslots"], locale: string): Day[] {
  const day = new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long" });
  const days: Day[] = [];
  for (const slot of slots) {
    const label = day.format(new Date(slot.date));
    const last = days.at(-1);
    if (last?.label === label) last.slots.push(slot);
    else days.push({ label, slots: [slot] });
  }
  return days;
}

export function TimePickerView({ content, locale, enabled, onChoose }: TimePickerProps) {
  const id = useId();
  const minutes = new Intl.NumberFormat(locale, {
    style: "unit",
    unit: "minute",
    unitDisplay: "short",
  });
  const slots = [...content.timeslots].sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
  return (
    <>
      <div className="title">
        <Markdown text={content.title} />
        {content.subtitle && <Markdown text={content.subtitle} />}
      </div>
      {byDay(slots, locale).map((day, d) => (
        <div key={day.label} role="group" aria-labelledby={`${id}-${d}`} className="day">
          <p id={`${id}-${d}`} className="day-label">
            {day.label}
          </p>
          <ul className="chips">
            {day.slots.map((slot) => (
              <li key={slot.date}>
                <button
                  type="button"
                  className="option chip"
                  disabled={!enabled}
                  onClick={() => onChoose(slot.date)}
                >
                  {formatTime(slot.date, locale)}
                  <span className="subtitle">{minutes.format(slot.duration)}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}
