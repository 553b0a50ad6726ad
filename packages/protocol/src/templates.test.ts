import { describe, expect, it } from "vitest";
import { carouselSelection, checkTemplate, TemplateLimits } from "./templates.js";

const envelope = (templateType: string, content: unknown, extra: object = {}) =>
  JSON.stringify({ templateType, version: "1.0", data: { content, ...extra } });
const list = (n: number, title = (i: number) => `Option ${i + 1}`) =>
  Array.from({ length: n }, (_, i) => ({ title: title(i) }));
const problem = (content: string): string => {
  const checked = checkTemplate(content);
  return "problem" in checked ? checked.problem : "";
};

describe("interactive templates are checked with the hosted widget's limits (issue 26)", () => {
  it("accepts each of the five templates at its limits", () => {
    const image = {
      imageType: "URL",
      imageData: "https://shop.example/a.png",
      imageDescription: "A",
    };
    const good = [
      envelope("ListPicker", {
        title: "Pick",
        ...image,
        elements: list(TemplateLimits.ListPicker),
      }),
      envelope("Panel", {
        title: "Order",
        subtitle: "Dispatched",
        elements: list(TemplateLimits.Panel),
      }),
      envelope("QuickReply", { title: "Helpful?", elements: list(TemplateLimits.QuickReply) }),
      envelope("TimePicker", {
        title: "Book a call back",
        timeZoneOffset: 60,
        timeslots: [
          { date: "2026-11-30T09:00+01:00", duration: 30 },
          { date: "2026-11-30T09:30:00Z", duration: 30 },
        ],
      }),
      envelope("Carousel", {
        title: "Our bestsellers",
        elements: ["a", "b"].map((id) => ({
          templateIdentifier: id,
          templateType: "ListPicker",
          version: "1.0",
          data: { content: { title: id, ...image, elements: list(2) } },
        })),
      }),
    ];
    for (const content of good)
      expect(checkTemplate(content)).toEqual({ template: JSON.parse(content) });
  });

  it.each([
    ["not JSON", "{", "not valid JSON"],
    ["another template type", envelope("ViewResource", {}), "templateType must be one of"],
    [
      "another version",
      JSON.stringify({ templateType: "Panel", version: "2", data: { content: {} } }),
      'version must be "1.0"',
    ],
    [
      "no content",
      JSON.stringify({ templateType: "Panel", version: "1.0", data: {} }),
      "data.content must be an object",
    ],
    [
      "too many list elements",
      envelope("ListPicker", { title: "t", elements: list(7) }),
      "1 to 6 elements",
    ],
    [
      "too many panel elements",
      envelope("Panel", { title: "t", elements: list(11) }),
      "1 to 10 elements",
    ],
    ["no elements", envelope("QuickReply", { title: "t", elements: [] }), "1 to 6 elements"],
    [
      "a long title",
      envelope("Panel", { title: "x".repeat(401), elements: list(1) }),
      "title must be a text of 1 to 400",
    ],
    [
      "a long quick reply",
      envelope("QuickReply", { title: "t", elements: list(1, () => "x".repeat(201)) }),
      "elements[0].title must be a text of 1 to 200",
    ],
    [
      "an http image",
      envelope("ListPicker", {
        title: "t",
        imageType: "URL",
        imageData: "http://x.example/a.png",
        elements: list(1),
      }),
      "imageData must be an https URL",
    ],
    [
      "a javascript: image",
      envelope("ListPicker", {
        title: "t",
        elements: [{ title: "a", imageType: "URL", imageData: "javascript:alert(1)" }],
      }),
      "elements[0].imageData must be an https URL",
    ],
    [
      "a slot without offset",
      envelope("TimePicker", {
        title: "t",
        timeslots: [{ date: "2026-11-30T09:00", duration: 30 }],
      }),
      "with an offset",
    ],
    [
      "a slot without duration",
      envelope("TimePicker", {
        title: "t",
        timeslots: [{ date: "2026-11-30T09:00Z", duration: 0 }],
      }),
      "duration must be a whole number",
    ],
    [
      "too many slots",
      envelope("TimePicker", {
        title: "t",
        timeslots: Array.from({ length: 21 }, () => ({ date: "2026-11-30T09:00Z", duration: 30 })),
      }),
      "1 to 20 slots",
    ],
    [
      "a carousel of quick replies",
      envelope("Carousel", {
        title: "t",
        elements: [
          {
            templateIdentifier: "a",
            templateType: "QuickReply",
            version: "1.0",
            data: { content: { title: "q", elements: list(1) } },
          },
        ],
      }),
      "templateType must be one of ListPicker, Panel",
    ],
    [
      "a carousel with twin cards",
      envelope("Carousel", {
        title: "t",
        elements: ["a", "a"].map((id) => ({
          templateIdentifier: id,
          templateType: "Panel",
          version: "1.0",
          data: { content: { title: "p", elements: list(1) } },
        })),
      }),
      "unique in the carousel",
    ],
    [
      "a carousel of six",
      envelope("Carousel", { title: "t", elements: list(6) }),
      "1 to 5 templates",
    ],
    [
      "a bad reply message",
      envelope("Panel", { title: "t", elements: list(1) }, { replyMessage: { title: "" } }),
      "replyMessage.title",
    ],
  ])("refuses %s", (_what, content, expected) => {
    expect(problem(content)).toContain(expected);
  });
});

describe("a carousel choice (docs/protocol.md §6.8)", () => {
  it("reads the chosen option from what the hosted widget sends", () => {
    const sent = JSON.stringify({
      templateIdentifier: "mugs",
      listTitle: "Mugs",
      selectionText: "Blue mug",
    });
    expect(carouselSelection(sent)).toBe("Blue mug");
  });

  it.each([
    ["plain text", "Blue mug"],
    ["JSON that is not a choice", '{"selectionText":"x"}'],
    ["a broken JSON", '{"templateIdentifier":'],
    ["an array", '["x"]'],
    ["a number as selection", '{"templateIdentifier":"a","selectionText":1}'],
  ])("is null for %s", (_what, text) => {
    expect(carouselSelection(text)).toBeNull();
  });
});
