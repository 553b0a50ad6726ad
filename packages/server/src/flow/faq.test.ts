import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { findAnswer, meaningfulWords, wordByWord, words } from "./faq.js";
import { loadFlows } from "./load.js";
import type { FlowFaq } from "./types.js";

let faq: FlowFaq;
beforeAll(async () => {
  faq = (await loadFlows()).get("default-flow")!.faq!;
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the built-in assistant's FAQ (issue 26)", () => {
  it.each([
    ["How much is delivery?", "£3.95"],
    ["how long does shipping take", "2–3 working days"],
    ["Do you ship to France or other countries?", "European Union"],
    ["I want a refund", "30 days"],
    ["can I pay with PayPal", "PayPal"],
    ["I forgot my password", "Forgotten your password"],
    ["Where is my parcel?", "tracking link"],
    ["I need to cancel my order", "until it is dispatched"],
  ])("answers %j from the matching entry", (question, expected) => {
    expect(findAnswer(faq, question)).toContain(expected);
  });

  it("answers with noAnswer when no entry shares a meaningful word", () => {
    expect(findAnswer(faq, "What is the meaning of life?")).toBe(faq.noAnswer);
    expect(findAnswer(faq, "how do I do it?")).toBe(faq.noAnswer);
  });

  it("counts words, not small words or plurals", () => {
    expect([...meaningfulWords("Where are my Parcels, please?")]).toEqual(["parcel"]);
  });

  it("splits the text into words that join back into it exactly", () => {
    const text = "  Orders *placed* before **2 pm**\\nship\\ttoday. ";
    expect(words(text).join("")).toBe(text);
    expect(words("one two  three")).toEqual(["one ", "two  ", "three"]);
    expect(words("")).toEqual([]);
  });

  it("streams one word per pause, the first at once", async () => {
    vi.useFakeTimers();
    const got: string[] = [];
    const done = (async () => {
      for await (const w of wordByWord("one two three", 30)) got.push(w);
    })();
    await vi.advanceTimersByTimeAsync(0);
    expect(got).toEqual(["one "]);
    await vi.advanceTimersByTimeAsync(29);
    expect(got).toEqual(["one "]);
    await vi.advanceTimersByTimeAsync(1);
    expect(got).toEqual(["one ", "two "]);
    await vi.advanceTimersByTimeAsync(30);
    await done;
    expect(got).toEqual(["one ", "two ", "three"]);
  });
});
