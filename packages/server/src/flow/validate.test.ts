import { afterEach, describe, expect, it, vi } from "vitest";
import { FlowFileError, validateFlow } from "./validate.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

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
              { pattern: 5, next: "a" },
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
    expect(message).toContain("states.a.wait.branches[2].pattern: must be a text");
    expect(message).toContain('states.a.wait.branches[1].next: no state named "gone"');
    expect(message).toContain("more than one way out (next, wait)");
    expect(message).toContain("states.b.actions[0]: unknown action");
  });

  it("checks opening hours, queue-position words and conditions on them (issue 24)", () => {
    const bad = {
      ...base,
      openingHours: {
        timeZone: "Mars/Olympus",
        days: { mon: "17:00-09:00", someday: "09:00-10:00" },
      },
      queuePosition: "",
      states: {
        a: {
          check: {
            conditions: [
              { open: "yes", next: "a" },
              { attribute: "x", advisorsAvailable: false, next: "a" },
              { next: "a" },
              { attribute: "x", present: true, unverified: "yes", next: "a" },
              { open: true, unverified: true, next: "a" },
            ],
            otherwise: "a",
          },
        },
      },
    };
    expect(() => validateFlow(bad)).toThrow(FlowFileError);
    const message = (() => {
      try {
        validateFlow(bad);
      } catch (err) {
        return (err as Error).message;
      }
      return "";
    })();
    expect(message).toContain(
      "states.a.check.conditions[3]: unverified must be a boolean, on an attribute condition",
    );
    expect(message).toContain(
      "states.a.check.conditions[4]: unverified must be a boolean, on an attribute condition",
    );
    expect(message).toContain("openingHours.timeZone: must be a known time zone");
    expect(message).toContain('openingHours.days.mon: must be a range such as "09:00-17:30"');
    expect(message).toContain("openingHours.days.someday: must be one of mon, tue");
    expect(message).toContain("queuePosition: must be a non-empty string");
    expect(message).toContain("conditions[0]: open must be a boolean");
    expect(message).toContain(
      "conditions[1]: must have exactly one of attribute, open, advisorsAvailable",
    );
    expect(message).toContain(
      "conditions[2]: must have exactly one of attribute, open, advisorsAvailable",
    );
    const noHours = {
      ...base,
      states: { a: { check: { conditions: [{ open: false, next: "a" }], otherwise: "a" } } },
    };
    expect(() => validateFlow(noHours)).toThrow("open needs the flow's openingHours");
  });

  it("checks answer states and the FAQ they answer from (issue 26)", () => {
    const problems = (flow: unknown): string => {
      try {
        validateFlow(flow);
      } catch (err) {
        return (err as Error).message;
      }
      return "";
    };
    const asking = { a: { answer: { from: "faq", branches: [{ equals: ["menu"], next: "a" }] } } };
    expect(problems({ ...base, states: asking })).toContain(
      "states.a.answer.from: the flow has no faq",
    );
    const faq = { noAnswer: "Sorry.", entries: [{ question: "Q?", answer: "A." }] };
    expect(validateFlow({ ...base, states: asking, faq }).faq).toEqual(faq);
    const message = problems({
      ...base,
      states: {
        a: { answer: { from: "lex", branches: [{ next: "b" }] }, next: "a" },
      },
      faq: {
        noAnswer: "",
        wordPauseMs: 60_000,
        entries: [{ question: "", answer: "x".repeat(20_000), keywords: "delivery" }],
      },
    });
    expect(message).toContain("more than one way out (next, answer)");
    expect(message).toContain('states.a.answer.from: must be "faq"');
    expect(message).toContain("states.a.answer.branches[0]: needs equals, contains or pattern");
    expect(message).toContain('states.a.answer.branches[0].next: no state named "b"');
    expect(message).toContain("faq.noAnswer: must be a text of at most");
    expect(message).toContain("faq.wordPauseMs: must be a whole number from 0 to 2000");
    expect(message).toContain("faq.entries[0].question: must be a non-empty string");
    expect(message).toContain("faq.entries[0].answer: must be a text of at most");
    expect(message).toContain("faq.entries[0].keywords: must be a list of texts");
    expect(
      problems({
        ...base,
        faq: {
          noAnswer: "x",
          entries: [{ question: "Q", answer: "A", keywords: ["where", "ok"] }],
        },
      }),
    ).toContain('faq.entries[0].keywords: "where" has no word that counts');
    expect(problems({ ...base, faq: { entries: [], noAnswer: "x" } })).toContain(
      "faq: must have entries and noAnswer",
    );
  });

  it("checks a bot answer state: its endpoint, limits, headers, hand-over and failure words (issue 26)", () => {
    vi.stubEnv("BOT_TOKEN", "s3cret");
    const problems = (answer: unknown): string => {
      try {
        validateFlow({ ...base, states: { a: { answer }, b: { end: true } } });
      } catch (err) {
        return (err as Error).message;
      }
      return "";
    };
    const good = {
      from: "bot",
      bot: {
        url: "https://bot.example/answer",
        timeoutMs: 5000,
        maxAnswerMs: 30000,
        headers: { authorization: "Bearer {{env.BOT_TOKEN}}" },
      },
      branches: [{ equals: ["menu"], next: "b" }],
      handOver: "b",
      failure: "Our bot is down.",
    };
    expect(problems(good)).toBe("");
    const message = problems({
      from: "bot",
      bot: {
        url: "file:///etc/passwd",
        timeoutMs: 10,
        maxAnswerMs: 10_000_000,
        headers: { "bad header": "x" },
      },
      branches: [],
      handOver: "nowhere",
      failure: "",
    });
    expect(message).toContain("states.a.answer.bot.url: must be an http or https URL");
    expect(message).toContain("states.a.answer.bot.timeoutMs: must be a whole number from 100");
    expect(message).toContain("states.a.answer.bot.maxAnswerMs: must be a whole number from 1000");
    expect(message).toContain("states.a.answer.bot.headers: must map header names to texts");
    expect(message).toContain('states.a.answer.handOver: no state named "nowhere"');
    expect(message).toContain("states.a.answer.failure: must be a text of at most");
    expect(problems({ from: "bot", branches: [], handOver: "b" })).toContain(
      "states.a.answer.bot: must be an object with a url",
    );
    expect(
      problems({ from: "bot", bot: { url: "not a url" }, branches: [], handOver: "b" }),
    ).toContain("states.a.answer.bot.url: must be an http or https URL");
    expect(
      problems({
        ...good,
        bot: { url: good.bot.url, headers: { "x-key": "{{env.NO_SUCH_VAR_X}}" } },
      }),
    ).toContain(
      "states.a.answer.bot.headers.x-key: the environment variable NO_SUCH_VAR_X is not set",
    );
    const faqWithBot = problems({ from: "faq", bot: good.bot, branches: [], handOver: "b" });
    expect(faqWithBot).toContain("states.a.answer.branches: must hold a way out");
    expect(faqWithBot).toContain('states.a.answer.bot: goes with from "bot"');
    expect(faqWithBot).toContain('states.a.answer.handOver: goes with from "bot"');
  });

  it("checks template actions with the templates' own rules (issue 26)", () => {
    const withAction = (template: unknown) => ({
      ...base,
      states: { a: { actions: [{ template }], end: true } },
    });
    const quickReply = {
      templateType: "QuickReply",
      version: "1.0",
      data: { content: { title: "Helpful?", elements: [{ title: "Yes" }, { title: "No" }] } },
    };
    expect(() => validateFlow(withAction({ ...quickReply, trigger: "Tell us:" }))).not.toThrow();
    expect(() => validateFlow(withAction({ ...quickReply, trigger: "" }))).toThrow(
      "states.a.actions[0]: trigger must be a non-empty string",
    );
    const tooMany = {
      ...quickReply,
      data: {
        content: { title: "t", elements: Array.from({ length: 7 }, () => ({ title: "x" })) },
      },
    };
    expect(() => validateFlow(withAction(tooMany))).toThrow(
      "states.a.actions[0]: template.data.content.elements must hold 1 to 6 elements",
    );
    expect(() => validateFlow(withAction("Panel"))).toThrow("template must be an object");
  });

  it("takes a TimePicker's slots as a rule, checked as the slots it makes would be", () => {
    const withSlots = (timeslots: unknown) => ({
      ...base,
      states: {
        a: {
          actions: [
            {
              template: {
                templateType: "TimePicker",
                version: "1.0",
                data: { content: { title: "When?", timeslots } },
              },
            },
          ],
          end: true,
        },
      },
    });
    expect(() =>
      validateFlow(withSlots({ days: 3, times: ["10:00", "14:00"], duration: 15 })),
    ).not.toThrow();
    expect(() => validateFlow(withSlots({ days: 3, times: ["10:00"], duration: 0 }))).toThrow(
      "states.a.actions[0]: timeslots.duration must be a whole number of minutes from 1 to 1440",
    );
    expect(() =>
      validateFlow(withSlots({ days: 7, times: ["09:00", "12:00", "15:00"], duration: 15 })),
    ).toThrow("timeslots make more than 20 slots");
    expect(() => validateFlow(withSlots("tomorrow"))).toThrow(
      "template.data.content.timeslots must hold 1 to 20 slots",
    );
  });

  it("rejects a non-object", () => {
    expect(() => validateFlow([])).toThrow(FlowFileError);
  });
});
