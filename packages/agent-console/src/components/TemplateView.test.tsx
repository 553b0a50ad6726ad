import { ContentType } from "@chat-widget/protocol";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { newChatState, withItems } from "../state/chat-state.js";
import { botMessage, chatInfo } from "../test-support/items.js";
import { Transcript } from "./Transcript.js";

afterEach(cleanup);

const envelope = (templateType: string, content: object) =>
  JSON.stringify({ templateType, version: "1.0", data: { content } });
const list = (...titles: string[]) => titles.map((title) => ({ title }));

function show(content: string) {
  const chat = withItems(
    newChatState(chatInfo()),
    [{ ...botMessage("t1", content), ContentType: ContentType.INTERACTIVE_MESSAGE }],
    true,
  );
  return render(<Transcript chat={chat} download={() => {}} retry={() => {}} />).container;
}

describe("the console shows every template the bot sent (issue 26)", () => {
  it("a title the flow escaped shows a visitor's value literally: no link in the bot's voice (issue 57)", () => {
    const c = show(
      envelope("Panel", {
        title: "Order **\\[Pay here\\]\\(https\\://evil.example/pay\\)** is on its way",
        elements: list("Track my parcel"),
      }),
    );
    const panel = c.querySelector<HTMLElement>('[data-template="Panel"]')!;
    expect(panel.querySelector("a")).toBeNull();
    expect(panel.querySelector("strong")!.textContent).toBe("[Pay here](https://evil.example/pay)");
  });

  it("a panel: its kind, title, subtitle, image description and options", () => {
    const c = show(
      envelope("Panel", {
        title: "Order A-10042",
        subtitle: "Dispatched yesterday",
        imageType: "URL",
        imageData: "https://shop.example/parcel.png",
        imageDescription: "A parcel",
        elements: list("Track my parcel", "Talk to an advisor"),
      }),
    );
    const panel = c.querySelector<HTMLElement>('[data-template="Panel"]')!;
    expect(within(panel).getByText("Panel")).toBeTruthy();
    expect(within(panel).getByText("Order A-10042")).toBeTruthy();
    expect(within(panel).getByText("Dispatched yesterday")).toBeTruthy();
    expect(within(panel).getByText("🖼 A parcel")).toBeTruthy();
    expect([...panel.querySelectorAll(".options li")].map((li) => li.textContent)).toEqual([
      "Track my parcel",
      "Talk to an advisor",
    ]);
    // Images are never fetched in the console.
    expect(c.querySelector("img")).toBeNull();
  });

  it("quick replies and a list picker, each named for what it is", () => {
    show(envelope("QuickReply", { title: "Was this helpful?", elements: list("Yes", "No") }));
    expect(screen.getByText("Quick replies")).toBeTruthy();
    expect(screen.getByText("Yes")).toBeTruthy();
    cleanup();
    show(envelope("ListPicker", { title: "How can we help?", elements: list("Returns") }));
    expect(screen.getByText("List")).toBeTruthy();
  });

  it("a time picker: each slot with its day, time and length", () => {
    const c = show(
      envelope("TimePicker", {
        title: "Book a call back",
        timeslots: [
          { date: "2026-11-30T09:00Z", duration: 30 },
          { date: "2026-11-30T14:30Z", duration: 15 },
        ],
      }),
    );
    expect(screen.getByText("Time picker")).toBeTruthy();
    const times = [...c.querySelectorAll(".options time")];
    expect(times.map((t) => t.getAttribute("dateTime"))).toEqual([
      "2026-11-30T09:00Z",
      "2026-11-30T14:30Z",
    ]);
    expect(times[0]!.textContent).toMatch(/\(30 min\)$/);
    expect(times[1]!.textContent).toMatch(/\(15 min\)$/);
  });

  it("a carousel: its cards in order, each with its options", () => {
    const card = (id: string, title: string, ...options: string[]) => ({
      templateIdentifier: id,
      templateType: "ListPicker",
      version: "1.0",
      data: { content: { title, elements: list(...options) } },
    });
    const c = show(
      envelope("Carousel", {
        title: "Our bestsellers",
        elements: [card("a", "Linen overshirt", "Buy", "Details"), card("b", "Wool beanie", "Buy")],
      }),
    );
    expect(screen.getByText("Carousel")).toBeTruthy();
    const cards = [...c.querySelectorAll(".cards > li")];
    expect(cards.map((li) => li.querySelector(".options")!.textContent)).toEqual([
      "BuyDetails",
      "Buy",
    ]);
    expect(within(cards[0] as HTMLElement).getByText("Linen overshirt")).toBeTruthy();
  });

  it("what is no template we know: the raw text, never anything made of it", () => {
    const raw = envelope("Panel", { title: "Too many", elements: list(..."abcdefghijk") });
    show(raw);
    expect(screen.getByText(raw)).toBeTruthy();
    expect(screen.queryByText("Panel")).toBeNull();
  });
});
