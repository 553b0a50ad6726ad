import { describe, expect, it } from "vitest";
import { escapeMarkdown, fillCanned, matchCanned } from "./fill.js";

const context = {
  visitorName: "Ada *Lovelace*",
  advisorName: "Sam",
  attributes: { orderNumber: "A-10042", plan: "[gold](https://evil.example)" },
};

describe("filling a canned response", () => {
  it("fills the visitor's and advisor's names and any attribute, escaped for markdown", () => {
    expect(
      fillCanned(
        "Hi {{visitor.name}}, {{ advisor.name }} here: order {{attributes.orderNumber}} ({{attributes.plan}}).",
        context,
      ),
    ).toBe(
      "Hi Ada \\*Lovelace\\*, Sam here: order A\\-10042 (\\[gold\\]\\(https://evil\\.example\\)).",
    );
  });

  it("leaves nothing of an unknown placeholder or a missing attribute, and keeps other braces", () => {
    expect(fillCanned("{{nope}}x{{attributes.missing}}y {single}", context)).toBe("xy {single}");
  });

  it("escapes every markdown character that could format", () => {
    expect(escapeMarkdown("a_b`c#d!e|f<g>")).toBe("a\\_b\\`c\\#d\\!e\\|f\\<g\\>");
  });
});

describe("finding canned responses as the advisor types", () => {
  const all = [
    { Shortcut: "where", Title: "Where is my order" },
    { Shortcut: "refund", Title: "Refund on its way" },
    { Shortcut: "hours", Title: "Opening hours" },
  ];
  it("puts shortcut matches first, then title matches, ignoring case", () => {
    expect(matchCanned(all, "ref").map((c) => c.Shortcut)).toEqual(["refund"]);
    expect(matchCanned(all, "O").map((c) => c.Shortcut)).toEqual(["where", "refund", "hours"]);
    expect(matchCanned(all, "h").map((c) => c.Shortcut)).toEqual(["hours", "where"]);
    expect(matchCanned(all, "").map((c) => c.Shortcut)).toEqual(["where", "refund", "hours"]);
  });
});
