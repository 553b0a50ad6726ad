/**
 * The five interactive templates in the visitor's window (issue 26): what each shows, what a
 * choice sends (docs/protocol.md §6.8) and how the sent choice reads, the carousel by keyboard.
 */
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { botMessage, customerMessage, interactive } from "./test-support/fakes.js";
import { flush, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const envelope = (templateType: string, content: unknown) => ({
  templateType,
  version: "1.0",
  data: { content },
});

async function botOffers(template: unknown) {
  const w = renderWidget();
  await w.open();
  await w.receive(botMessage("menu"));
  await w.receive(interactive(template));
  return w;
}

const sent = (w: Awaited<ReturnType<typeof botOffers>>) =>
  w.adapter.last.sent.map((s) => s.content).slice(1);
const outgoing = () =>
  [...document.querySelectorAll(".message.outgoing")].map((el) => el.textContent);
const button = (name: string) => screen.getByRole("button", { name }) as HTMLButtonElement;

describe("templates in the widget", () => {
  it("Panel: title, subtitle, its image described, the options as buttons; a choice sends its title", async () => {
    const w = await botOffers(
      envelope("Panel", {
        title: "Your order A-10042",
        subtitle: "Dispatched",
        imageType: "URL",
        imageData: "https://shop.example/parcel.png",
        imageDescription: "A parcel on its way",
        elements: [{ title: "Track my parcel" }, { title: "Back to the menu" }],
      }),
    );
    expect(screen.getByText("Your order A-10042")).toBeTruthy();
    expect(screen.getByText("Dispatched")).toBeTruthy();
    const image = screen.getByRole("img", { name: "A parcel on its way" }) as HTMLImageElement;
    expect(image.src).toBe("https://shop.example/parcel.png");
    fireEvent.click(button("Track my parcel"));
    await flush();
    expect(sent(w)).toEqual(["Track my parcel"]);
    expect(outgoing()).toEqual(["Track my parcel"]);
    expect(button("Back to the menu").disabled).toBe(true);
  });

  it("QuickReply: the options as a row of chips; a choice sends its title and shows once", async () => {
    const w = await botOffers(
      envelope("QuickReply", {
        title: "Did that help?",
        elements: [{ title: "Yes" }, { title: "No" }, { title: "Talk to an advisor" }],
      }),
    );
    const chips = document.querySelector("ul.chips");
    expect(
      within(chips as HTMLElement)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Yes", "No", "Talk to an advisor"]);
    fireEvent.click(button("No"));
    await flush();
    await w.receive(customerMessage("No", { Id: "sent-2" }));
    expect(sent(w)).toEqual(["No"]);
    expect(outgoing()).toEqual(["No"]);
  });

  it("TimePicker: slots grouped by day, in time order, each named by time and length; a choice sends the slot's date and reads as a day and time", async () => {
    const slots = [
      { date: "2026-12-01T12:30+00:00", duration: 15 },
      { date: "2026-11-30T12:00+00:00", duration: 30 },
      { date: "2026-12-01T12:00+00:00", duration: 30 },
    ];
    const w = await botOffers(
      envelope("TimePicker", { title: "When shall we call you?", timeslots: slots }),
    );
    const days = screen.getAllByRole("group");
    expect(days).toHaveLength(2);
    const time = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit" });
    const at = (iso: string) => time.format(new Date(iso));
    expect(
      within(days[0]!)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual([`${at(slots[1]!.date)}30 min`]);
    expect(
      within(days[1]!)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual([`${at(slots[2]!.date)}30 min`, `${at(slots[0]!.date)}15 min`]);
    expect(days[0]!.getAttribute("aria-labelledby")).toBeTruthy();
    expect(within(days[0]!).getByText(/November/)).toBeTruthy();
    fireEvent.click(within(days[1]!).getAllByRole("button")[1]!);
    await flush();
    expect(sent(w)).toEqual(["2026-12-01T12:30+00:00"]);
    const shown = outgoing()[0] ?? "";
    expect(shown).not.toContain("2026");
    expect(shown).toContain(at(slots[0]!.date));
    expect(shown).toMatch(/Dec/);
  });

  const card = (id: string, title: string, options: string[]) => ({
    ...envelope("ListPicker", { title, elements: options.map((o) => ({ title: o })) }),
    templateIdentifier: id,
  });
  const carousel = envelope("Carousel", {
    title: "Our bestsellers",
    elements: [
      card("mugs", "Mugs", ["Blue mug", "Red mug"]),
      card("tea", "Tea", ["Green tea"]),
      card("socks", "Socks", ["Wool socks"]),
    ],
  });

  it("Carousel: one card at a time, previous and next wrap around; a choice sends the card and option, and reads as the option", async () => {
    const w = await botOffers(carousel);
    expect(screen.getByRole("group", { name: "1 of 3" })).toBeTruthy();
    expect(screen.getByText("Mugs")).toBeTruthy();
    fireEvent.click(button("Previous card"));
    expect(screen.getByRole("group", { name: "3 of 3" })).toBeTruthy();
    expect(screen.getByText("Socks")).toBeTruthy();
    fireEvent.click(button("Next card"));
    fireEvent.click(button("Next card"));
    expect(screen.getByText("Tea")).toBeTruthy();
    fireEvent.click(button("Green tea"));
    await flush();
    expect(sent(w).map((s) => JSON.parse(s) as unknown)).toEqual([
      { templateIdentifier: "tea", listTitle: "Tea", selectionText: "Green tea" },
    ]);
    expect(outgoing()).toEqual(["Green tea"]);
  });

  it("Carousel by keyboard: the arrow keys move the cards, and focus on an option follows to the next card's first", async () => {
    await botOffers(carousel);
    const blue = button("Blue mug");
    blue.focus();
    fireEvent.keyDown(blue, { key: "ArrowRight" });
    expect(screen.getByRole("group", { name: "2 of 3" })).toBeTruthy();
    expect(document.activeElement).toBe(button("Green tea"));
    fireEvent.keyDown(button("Green tea"), { key: "ArrowLeft" });
    fireEvent.keyDown(button("Blue mug"), { key: "ArrowLeft" });
    expect(screen.getByRole("group", { name: "3 of 3" })).toBeTruthy();
    expect(document.activeElement).toBe(button("Wool socks"));
    // On the buttons, focus stays where it is.
    const next = button("Next card");
    next.focus();
    fireEvent.keyDown(next, { key: "ArrowRight" });
    expect(screen.getByRole("group", { name: "1 of 3" })).toBeTruthy();
    expect(document.activeElement).toBe(next);
  });

  it("a template the check refuses (an image over http) shows nothing and sends nothing", async () => {
    const w = await botOffers(
      envelope("Panel", {
        title: "Unsafe",
        imageType: "URL",
        imageData: "http://tracker.example/pixel.png",
        elements: [{ title: "Click" }],
      }),
    );
    expect(screen.queryByText("Unsafe")).toBeNull();
    expect(document.querySelector(".template, img.template-image")).toBeNull();
    expect(sent(w)).toEqual([]);
  });

  it("what a visitor typed that looks like JSON is shown as typed", async () => {
    const w = renderWidget();
    await w.open();
    fireEvent.change(w.textbox(), { target: { value: '{"selectionText":"x"}' } });
    fireEvent.keyDown(w.textbox(), { key: "Enter" });
    await flush();
    expect(outgoing()).toEqual(['{"selectionText":"x"}']);
  });
});
