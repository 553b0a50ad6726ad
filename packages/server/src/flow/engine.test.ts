import { checkTemplate, ContentType, parseListPicker } from "@chat-widget/protocol";
import type { Template, TimeSlot } from "@chat-widget/protocol";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ALWAYS,
  escapeMarkdown,
  fill,
  INPUT_SENTINEL,
  MAX_PENDING_ECHOES,
  matchBranch,
  receiveCustomerMessage,
  startFlow,
  type Decision,
} from "./engine.js";
import { loadFlows } from "./load.js";
import type { Flow, FlowEffect, FlowFacts } from "./types.js";

let flow: Flow;
beforeAll(async () => {
  flow = (await loadFlows()).get("default-flow")!;
});

const text = (content: string) => ({ contentType: ContentType.TEXT_PLAIN, content });
const messages = (d: Decision) =>
  d.effects.filter((e): e is Extract<FlowEffect, { kind: "message" }> => e.kind === "message");
/** An interactive message's template (asserting the flow sent one the check accepts). */
interface SentTemplate {
  templateType: Template["templateType"];
  data: {
    content: {
      title: string;
      timeslots: TimeSlot[];
      elements: { templateIdentifier?: string; title: string }[];
    };
  };
}
function templateOf(content: string): SentTemplate {
  const checked = checkTemplate(content);
  if (!("template" in checked)) throw new Error(checked.problem);
  return checked.template as unknown as SentTemplate;
}
const pickerTitles = (d: Decision) =>
  messages(d)
    .filter((m) => m.contentType === ContentType.INTERACTIVE_MESSAGE)
    .map((m) => parseListPicker(m.content)!.data.content);

/** Start, then let the widget echo every bot message, then choose. */
function choose(choice: string, attrs: Record<string, string> = {}, facts?: FlowFacts) {
  let d = startFlow(flow, attrs);
  for (const echo of [...d.position.pendingEchoes]) {
    d = receiveCustomerMessage(flow, d.position, text(echo), attrs);
    expect(d.ignored).toBe("echo");
  }
  return receiveCustomerMessage(flow, d.position, text(choice), attrs, facts);
}

describe("default flow: greeting and list picker", () => {
  it("greets with a markdown message the customer reads, then sends a list picker", () => {
    const d = startFlow(flow, {});
    const [greeting, trigger, picker] = messages(d);
    expect(greeting).toMatchObject({ voice: "assistant", contentType: ContentType.TEXT_MARKDOWN });
    expect(greeting!.content).toContain("Welcome");
    // Worded apart from the picker's title: a client that shows the trigger (Amazon's chat
    // interface, the console) does not show the question twice.
    expect(trigger).toMatchObject({
      voice: "bot",
      contentType: ContentType.TEXT_PLAIN,
      content: "Please choose one of the options below.",
    });
    expect(picker).toMatchObject({ voice: "bot", contentType: ContentType.INTERACTIVE_MESSAGE });
    const content = pickerTitles(d)[0]!;
    expect(content.title).toBe("How can we help?");
    expect(content.elements.map((e) => e.title)).toEqual([
      "Where is my order?",
      "Returns and refunds",
      "Book a call back",
      "Our bestsellers",
      "Ask a question",
      "Talk to an advisor",
    ]);
    expect(d.position).toEqual({
      waitingIn: "menu",
      pendingEchoes: ["Please choose one of the options below."],
      outcome: null,
    });
  });

  it("ignores the widget's echo of a bot message (protocol traffic, not conversation)", () => {
    const d = startFlow(flow, {});
    const echoed = receiveCustomerMessage(
      flow,
      d.position,
      text("Please choose one of the options below."),
      {},
    );
    expect(echoed.ignored).toBe("echo");
    expect(echoed.effects).toEqual([]);
    expect(echoed.position).toEqual({ ...d.position, pendingEchoes: [] });
    // The same text a second time is the customer's own message.
    const again = receiveCustomerMessage(
      flow,
      echoed.position,
      text("Please choose one of the options below."),
      {},
    );
    expect(again.ignored).toBeUndefined();
    expect(again.position.outcome).toBe("queued");
  });

  it("ignores messages that are not plain or markdown text", () => {
    const d = startFlow(flow, {});
    const r = receiveCustomerMessage(
      flow,
      d.position,
      { contentType: ContentType.APPLICATION_JSON, content: "{}" },
      {},
    );
    expect(r).toEqual({ position: d.position, effects: [], ignored: "not-text" });
  });
});

describe("default flow: order status", () => {
  it("answers 'Where is my order?' with a Panel showing the reported order's status", () => {
    const d = choose("Where is my order?", { orderNumber: "A-10042" });
    const [trigger, panel] = messages(d);
    expect(trigger).toMatchObject({ voice: "bot", content: "Here is your order." });
    const template = templateOf(panel!.content);
    expect(template).toMatchObject({ templateType: "Panel" });
    expect(template.data.content.title).toBe("Order **A-10042** is on its way");
    expect(d.position.waitingIn).toBe("orderKnown");
    const done = receiveCustomerMessage(flow, d.position, text("No, thanks"), {});
    expect(done.position.outcome).toBe("ended");
    const more = receiveCustomerMessage(flow, d.position, text("Something else"), {});
    expect(more.position.waitingIn).toBe("anythingElse");
  });

  it("without an order number, asks for it and waits with the input sentinel", () => {
    const d = choose("Where is my order?");
    const ms = messages(d);
    expect(ms[0]!.content).toContain("type your order number");
    expect(ms[1]).toEqual({
      kind: "message",
      voice: "bot",
      contentType: ContentType.TEXT_PLAIN,
      content: INPUT_SENTINEL,
    });
    expect(d.position.waitingIn).toBe("askOrderNumber");
    expect(d.position.pendingEchoes).toEqual([]);
  });

  it("stores a typed order number on the contact and answers with it", () => {
    const asked = choose("Where is my order?");
    const d = receiveCustomerMessage(flow, asked.position, text("  B-77 123 "), {});
    expect(d.effects.some((e) => e.kind === "queue")).toBe(true);
    const typed = receiveCustomerMessage(flow, asked.position, text("b-12345"), {});
    expect(typed.effects[0]).toEqual({
      kind: "setAttributes",
      attributes: { orderNumber: "b-12345" },
    });
    expect(templateOf(messages(typed)[1]!.content).data.content.title).toContain("**b-12345**");
  });

  it("routes an order number it does not recognise to the advisors' queue", () => {
    const asked = choose("Where is my order?");
    const d = receiveCustomerMessage(flow, asked.position, text("no idea"), {});
    expect(messages(d).map((m) => m.content)).toEqual([
      "Sorry, I don't recognise that order number.",
      "Connecting you to an advisor…",
    ]);
    expect(d.effects.at(-1)).toEqual({ kind: "queue", queue: "advisors" });
  });
});

describe("values the flow places in a message or template are escaped for where they land (issue 57)", () => {
  const phishing = "[Pay here](https://evil.example/pay) **now**";

  it("a reported order number in the Panel's markdown title is literal text: no link, no emphasis", () => {
    const d = choose("Where is my order?", { orderNumber: phishing });
    const [, panel] = messages(d);
    expect(templateOf(panel!.content).data.content.title).toBe(
      "Order **\\[Pay here\\]\\(https\\://evil.example/pay\\) \\*\\*now\\*\\*** is on its way",
    );
  });

  it("escapes markdown marks, a block mark at the start and line breaks; leaves plain values as they are", () => {
    expect(escapeMarkdown("A-10042")).toBe("A-10042");
    expect(escapeMarkdown("# Title\n- item")).toBe("\\# Title - item");
    expect(escapeMarkdown("1. first")).toBe("1\\. first");
    expect(escapeMarkdown("<img src=x>")).toBe("\\<img src=x\\>");
    expect(escapeMarkdown("a_b`c`")).toBe("a\\_b\\`c\\`");
  });

  it("a plain-text message and an attribute the flow saves keep the value as it is", () => {
    expect(fill("Order {{n}}", { n: phishing })).toBe(`Order ${phishing}`);
    expect(fill("Order {{n}}", { n: "{{m}}", m: "x" })).toBe("Order {{m}}");
  });
});

describe("default flow: each question once (issue 58)", () => {
  it("no template's trigger line repeats its title (Amazon's chat interface shows both)", () => {
    const templates = Object.values(flow.states).flatMap((state) =>
      (state.actions ?? []).flatMap((a) => ("template" in a ? [a.template] : [])),
    );
    expect(templates.length).toBeGreaterThan(0);
    for (const t of templates) {
      const title = (t as { data?: { content?: { title?: string } } }).data?.content?.title;
      expect(t.trigger).toBeDefined();
      expect(t.trigger).not.toBe(title);
    }
  });
});

describe("default flow: routing", () => {
  it("'Talk to an advisor' routes the contact to the advisors' queue", () => {
    const d = choose("Talk to an advisor");
    expect(messages(d).map((m) => [m.voice, m.content])).toEqual([
      ["assistant", "Connecting you to an advisor…"],
    ]);
    expect(d.effects.at(-1)).toEqual({ kind: "queue", queue: "advisors" });
    expect(d.position).toMatchObject({ waitingIn: null, outcome: "queued" });
  });

  it("with no advisor Available the visitor is told so, then queued all the same (issue 24)", () => {
    const d = choose("Talk to an advisor", {}, { open: true, advisorsAvailable: false });
    expect(messages(d).map((m) => m.content)).toEqual([
      "No advisor is available right now. You can wait here: the first advisor to be free will answer you. Or come back later.",
      "Connecting you to an advisor…",
    ]);
    expect(d.effects.at(-1)).toEqual({ kind: "queue", queue: "advisors" });
  });

  it("outside the opening hours the visitor is told the advisors are away and the bot offers its menu again, nothing queued (issue 24)", () => {
    const d = choose("Talk to an advisor", {}, { open: false, advisorsAvailable: true });
    expect(messages(d)[0]!.content).toBe(
      "Our advisors are away at the moment. Please come back during our opening hours.",
    );
    expect(d.effects.some((e) => e.kind === "queue")).toBe(false);
    expect(pickerTitles(d).map((p) => p.title)).toEqual([
      "Is there anything else I can help with?",
    ]);
    expect(d.position).toMatchObject({ waitingIn: "anythingElse", outcome: null });
  });

  it("the default flow holds its hours and its queue-position words as data", () => {
    expect(flow.openingHours?.timeZone).toBe("Europe/London");
    expect(Object.keys(flow.openingHours?.days ?? {})).toHaveLength(7);
    expect(flow.queuePosition).toBe("You are number **{{position}}** in the queue.");
  });

  it("an unknown request goes to the advisors' queue", () => {
    const d = choose("Can I change my billing address?");
    expect(d.effects.at(-1)).toEqual({ kind: "queue", queue: "advisors" });
  });

  it("answers returns itself, then asks with quick replies", () => {
    const d = choose("returns and refunds!");
    expect(messages(d)[0]!.content).toContain("30 days");
    const template = templateOf(messages(d)[2]!.content);
    expect(template.templateType).toBe("QuickReply");
    expect(template.data.content.elements.map((e) => e.title)).toEqual([
      "No, thanks",
      "Something else",
      "Talk to an advisor",
    ]);
    expect(d.position.waitingIn).toBe("returns");
    const advisor = receiveCustomerMessage(flow, d.position, text("Talk to an advisor"), {});
    expect(advisor.position.outcome).toBe("queued");
  });

  it("'Book a call back' offers the next three days' slots in the shop's time zone, and books the one chosen", () => {
    // Monday 30 November 2026, 11:00 in London.
    const now = Date.parse("2026-11-30T11:00:00Z");
    const d = choose("Book a call back", {}, { open: true, advisorsAvailable: true, now });
    const template = templateOf(messages(d)[1]!.content);
    expect(template.templateType).toBe("TimePicker");
    const { timeslots } = template.data.content;
    expect(timeslots).toHaveLength(9);
    expect(timeslots.slice(0, 3)).toEqual([
      { date: "2026-12-01T10:00+00:00", duration: 15 },
      { date: "2026-12-01T14:00+00:00", duration: 15 },
      { date: "2026-12-01T16:30+00:00", duration: 15 },
    ]);
    expect(timeslots.at(-1)).toEqual({ date: "2026-12-03T16:30+00:00", duration: 15 });
    const booked = receiveCustomerMessage(flow, d.position, text("2026-12-02T14:00+00:00"), {});
    expect(booked.effects[0]).toEqual({
      kind: "setAttributes",
      attributes: { callBackAt: "2026-12-02T14:00+00:00" },
    });
    expect(messages(booked)[0]!.content).toContain("call back is booked");
    expect(booked.position.waitingIn).toBe("anythingElse");
  });

  it("'Our bestsellers' offers a carousel of list pickers; a card's option chosen is named back", () => {
    const d = choose("Our bestsellers");
    const template = templateOf(messages(d)[1]!.content);
    expect(template.templateType).toBe("Carousel");
    expect(template.data.content.elements.map((e) => e.templateIdentifier)).toEqual([
      "knitwear",
      "home",
      "gifts",
      "help",
    ]);
    const choice = JSON.stringify({
      templateIdentifier: "home",
      listTitle: "Home",
      selectionText: "Linen throw",
    });
    const chosen = receiveCustomerMessage(flow, d.position, text(choice), {});
    expect(messages(chosen)[0]!.content).toContain("**Linen throw**");
    expect(chosen.position.waitingIn).toBe("anythingElse");
    const help = (selectionText: string) =>
      text(JSON.stringify({ templateIdentifier: "help", listTitle: "Not what", selectionText }));
    const advisor = receiveCustomerMessage(flow, d.position, help("Talk to an advisor"), {});
    expect(advisor.position.outcome).toBe("queued");
    const other = receiveCustomerMessage(flow, d.position, help("Something else"), {});
    expect(other.position.waitingIn).toBe("anythingElse");
  });

  it("'No, thanks' says goodbye and ends the contact", () => {
    const first = choose("Returns and refunds");
    const d = receiveCustomerMessage(flow, first.position, text("No, thanks"), {});
    expect(messages(d)[0]!.content).toContain("Thanks for chatting");
    expect(d.effects.at(-1)).toEqual({ kind: "end" });
    expect(d.position.outcome).toBe("ended");
  });

  it("after routing, the flow ignores the customer's messages (the advisor answers)", () => {
    const d = choose("Talk to an advisor");
    const r = receiveCustomerMessage(flow, d.position, text("hello?"), {});
    expect(r).toEqual({ position: d.position, effects: [], ignored: "not-waiting" });
  });
});

describe("default flow: the built-in assistant (issue 26)", () => {
  const ask = () => {
    const d = choose("Ask a question");
    // The input sentinel is not echoed: the flow waits for the question.
    expect(messages(d).map((m) => m.content)).toContain(INPUT_SENTINEL);
    expect(d.position.waitingIn).toBe("askQuestion");
    return d;
  };

  it("answers question after question, staying in the state", () => {
    const first = receiveCustomerMessage(flow, ask().position, text("How much is delivery?"), {});
    expect(first.effects).toEqual([
      {
        kind: "answer",
        state: "askQuestion",
        contentType: ContentType.TEXT_PLAIN,
        question: "How much is delivery?",
      },
    ]);
    expect(first.position.waitingIn).toBe("askQuestion");
    const second = receiveCustomerMessage(flow, first.position, text("And returns?"), {});
    expect(second.effects).toEqual([
      {
        kind: "answer",
        state: "askQuestion",
        contentType: ContentType.TEXT_PLAIN,
        question: "And returns?",
      },
    ]);
    expect(second.position).toEqual(first.position);
  });

  it("leaves on its branches: an advisor, or back to the menu", () => {
    const toAdvisor = receiveCustomerMessage(
      flow,
      ask().position,
      text("a real person please"),
      {},
    );
    expect(toAdvisor.effects.at(-1)).toEqual({ kind: "queue", queue: "advisors" });
    const back = receiveCustomerMessage(flow, ask().position, text("Menu"), {});
    expect(back.position.waitingIn).toBe("anythingElse");
    expect(back.effects.some((e) => e.kind === "answer")).toBe(false);
  });

  it("consumes a late echo of a bot message instead of answering it", () => {
    const echo = "Please choose one of the options below.";
    const position = { ...ask().position, pendingEchoes: [echo] };
    const r = receiveCustomerMessage(flow, position, text(echo), {});
    expect(r.ignored).toBe("echo");
    expect(r.effects).toEqual([]);
  });
});

describe("template actions (issue 26)", () => {
  const panel = {
    templateType: "Panel",
    version: "1.0",
    data: {
      content: {
        title: "Order {{orderNumber}}",
        subtitle: "Dispatched",
        elements: [{ title: "Track {{orderNumber}}" }, { title: "Talk to an advisor" }],
      },
    },
  };
  const flowWith = (template: Record<string, unknown>): Flow => ({
    id: "t",
    assistantName: "A",
    start: "a",
    states: { a: { actions: [{ template }], wait: { branches: [], otherwise: "a" } } },
  });

  it("sends the template, placeholders filled everywhere, after its title as the bot's trigger", () => {
    const d = startFlow(flowWith(panel), { orderNumber: "A-7" });
    const [trigger, sent] = messages(d);
    expect(trigger).toEqual({
      kind: "message",
      voice: "bot",
      contentType: ContentType.TEXT_PLAIN,
      content: "Order A-7",
    });
    expect(sent!.contentType).toBe(ContentType.INTERACTIVE_MESSAGE);
    expect(JSON.parse(sent!.content)).toEqual({
      ...panel,
      data: {
        content: {
          ...panel.data.content,
          title: "Order A-7",
          elements: [{ title: "Track A-7" }, { title: "Talk to an advisor" }],
        },
      },
    });
    // The trigger is echoed by the widget (it makes the options clickable): expected back.
    expect(d.position.pendingEchoes).toEqual(["Order A-7"]);
  });

  it("sends its own trigger words instead, and never the trigger inside the template", () => {
    const d = startFlow(flowWith({ ...panel, trigger: "Here is {{orderNumber}}:" }), {
      orderNumber: "A-7",
    });
    const [trigger, sent] = messages(d);
    expect(trigger!.content).toBe("Here is A-7:");
    expect(JSON.parse(sent!.content)).not.toHaveProperty("trigger");
  });
});

describe("engine rules", () => {
  it("remembers at most the last few bot messages for echo detection", () => {
    const loop: Flow = {
      id: "loop",
      assistantName: "A",
      start: "a",
      states: {
        a: {
          actions: Array.from({ length: 12 }, (_, i) => ({ botSay: `m${i}` })),
          wait: { branches: [], otherwise: "a" },
        },
      },
    };
    const d = startFlow(loop, {});
    expect(d.position.pendingEchoes).toHaveLength(MAX_PENDING_ECHOES);
    expect(d.position.pendingEchoes[0]).toBe("m2");
  });

  it("stops a flow that loops without waiting", () => {
    const loop: Flow = {
      id: "l",
      assistantName: "A",
      start: "a",
      states: { a: { next: "b" }, b: { next: "a" } },
    };
    expect(startFlow(loop, {}).position).toEqual({
      waitingIn: null,
      pendingEchoes: [],
      outcome: "finished",
    });
  });

  it("branches on attributes by equality and fills placeholders", () => {
    const f: Flow = {
      id: "c",
      assistantName: "A",
      start: "c",
      states: {
        c: {
          actions: [{ setAttributes: { tier: "gold" } }],
          check: {
            conditions: [{ attribute: "tier", equals: "gold", unverified: true, next: "gold" }],
            otherwise: "x",
          },
        },
        gold: { actions: [{ say: "Hello {{name}}, {{ tier }} member{{missing}}" }] },
        x: {},
      },
    };
    const d = startFlow(f, { name: "Ann" });
    expect(messages(d)[0]!.content).toBe("Hello Ann, gold member");
    expect(d.position.outcome).toBe("finished");
  });

  it("an attribute condition reads only the verified jwt's value unless it opts in to unverified ones (issue 57)", () => {
    const f: Flow = {
      id: "v",
      assistantName: "A",
      start: "c",
      states: {
        c: {
          check: {
            conditions: [{ attribute: "tier", equals: "gold", next: "gold" }],
            otherwise: "x",
          },
        },
        gold: { actions: [{ say: "gold" }] },
        x: { actions: [{ say: "other" }] },
      },
    };
    const said = (attrs: Record<string, string>, verified?: Record<string, string>) =>
      messages(startFlow(f, attrs, { ...ALWAYS, ...(verified ? { verified } : {}) }))[0]!.content;
    // Reported by the visitor (or the page): not the jwt's, so not read.
    expect(said({ tier: "gold" })).toBe("other");
    expect(said({ tier: "gold" }, { tier: "gold" })).toBe("gold");
    // Changed since the jwt set it: not the jwt's value any more.
    expect(said({ tier: "gold" }, { tier: "silver" })).toBe("other");
  });

  it("matches whole words only", () => {
    expect(matchBranch({ contains: ["track"], next: "x" }, "Can you track it?")).toBe(true);
    expect(matchBranch({ contains: ["track"], next: "x" }, "racetrack")).toBeNull();
    expect(matchBranch({ equals: ["Talk to an advisor"], next: "x" }, "talk  to an ADVISOR.")).toBe(
      true,
    );
  });
});
