import { describe, expect, it } from "vitest";
import { FlowFileError, validateFlow } from "./validate.js";

const base = { id: "f", assistantName: "A", start: "a", states: { a: { end: true } } };

describe("flow files are validated", () => {
  it("accepts a minimal flow", () => {
    expect(validateFlow(base).id).toBe("f");
  });

  it("names every problem: unknown states, bad patterns, too many list elements, two exits", () => {
    const bad = {
      id: "",
      assistantName: "A",
      start: "nowhere",
      states: {
        a: {
          actions: [
            {
              listPicker: {
                title: "t",
                elements: Array.from({ length: 7 }, () => ({ title: "x" })),
              },
            },
          ],
          wait: {
            branches: [
              { pattern: "(", next: "a" },
              { equals: ["x"], next: "gone" },
            ],
            otherwise: "a",
          },
          next: "a",
        },
        b: { actions: [{ shout: "hi" }] },
      },
    };
    let message = "";
    try {
      validateFlow(bad, "bad.json");
    } catch (err) {
      expect(err).toBeInstanceOf(FlowFileError);
      message = (err as Error).message;
    }
    expect(message).toContain("bad.json");
    expect(message).toContain("id: must be a non-empty string");
    expect(message).toContain('start: no state named "nowhere"');
    expect(message).toContain("more than 6 elements");
    expect(message).toContain("is not a valid regular expression");
    expect(message).toContain('states.a.wait.branches[1].next: no state named "gone"');
    expect(message).toContain("more than one way out (next, wait)");
    expect(message).toContain("states.b.actions[0]: unknown action");
  });

  it("rejects a non-object", () => {
    expect(() => validateFlow([])).toThrow(FlowFileError);
  });
});
