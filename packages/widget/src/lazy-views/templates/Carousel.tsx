/**
 * Carousel: one card (a ListPicker or Panel) at a time, with previous and next buttons that wrap
 * around, and the arrow keys anywhere in it (mirrored right to left). Choosing an option sends
 * `{templateIdentifier, listTitle, selectionText}` as the hosted widget does.
 */
import { useLayoutEffect, useRef, useState } from "react";
import type { KeyboardEvent } from "react";
import type { CarouselTemplate } from "@chat-widget/protocol";
import { useTexts } from "../../texts-context.js";
import { fill } from "../../texts.js";
import { Markdown } from "../Markdown.js";
import { carouselChoice } from "./choice.js";
import { ListTemplateView } from "./ListTemplate.js";

export interface CarouselProps {
  content: CarouselTemplate["data"]["content"];
  enabled: boolean;
  onChoose: (choice: string) => void;
}

export function CarouselView({ content, enabled, onChoose }: CarouselProps) {
  const t = useTexts();
  const [index, setIndex] = useState(0);
  // Set when a key moved the cards while focus was on an option that is now gone.
  const refocus = useRef(false);
  const slide = useRef<HTMLDivElement>(null);
  const cards = content.elements;
  const count = cards.length;
  const card = cards[index % count];
  useLayoutEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    const target =
      slide.current?.querySelector<HTMLButtonElement>("button:not(:disabled)") ??
      slide.current?.parentElement?.querySelector<HTMLButtonElement>(".carousel-nav button");
    target?.focus();
  }, [index]);
  if (!card) return null;
  const move = (by: number) => setIndex((i) => (i + by + count) % count);
  const onKeyDown = (event: KeyboardEvent) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step || count < 2) return;
    event.preventDefault();
    const root = event.currentTarget.getRootNode() as Document | ShadowRoot;
    refocus.current = slide.current?.contains(root.activeElement) ?? false;
    move(t.DIR === "rtl" ? -step : step);
  };
  const label = fill(t.CARD, { n: index + 1, count });
  return (
    <div className="carousel" onKeyDown={onKeyDown}>
      <div className="title">
        <Markdown text={content.title} />
      </div>
      <div ref={slide} role="group" aria-label={label} className="card">
        <ListTemplateView
          key={card.templateIdentifier}
          type={card.templateType}
          content={card.data.content}
          enabled={enabled}
          onChoose={(title) =>
            onChoose(carouselChoice(card.templateIdentifier, card.data.content.title, title))
          }
        />
      </div>
      {count > 1 && (
        <div className="carousel-nav">
          <button type="button" aria-label={t.PREVIOUS} onClick={() => move(-1)}>
            <span aria-hidden="true">‹</span>
          </button>
          <span aria-hidden="true">{label}</span>
          <button type="button" aria-label={t.NEXT} onClick={() => move(1)}>
            <span aria-hidden="true">›</span>
          </button>
        </div>
      )}
    </div>
  );
}
