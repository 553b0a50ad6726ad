/**
 * Issue 26: the agent console shows every template the bot sent before the advisor joined, in
 * the chat's history, read-only, and axe-core finds no WCAG 2.2 AA violation there, light and
 * dark. The flow is the demo flow with its four templates (Panel, QuickReply, TimePicker,
 * Carousel) sent in the greeting, before its menu (a ListPicker).
 */
import { afterEach, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import type { FlowAction } from "../../packages/server/src/flow/types.js";
import { defaultFlowWith } from "../../packages/server/test/support/flows.js";
import { violations } from "../support/axe.js";
import { CONSOLE_BUILD, WIDGET_BUILD, startContactCentre } from "../support/contact-centre.js";
import { People } from "../support/people.js";
import { screenshot } from "./support.js";

const BOUND = { timeout: 30_000 };

const file = useBrowserFile(() =>
  startContactCentre([WIDGET_BUILD, CONSOLE_BUILD], {
    flowsDir: defaultFlowWith((flow) => {
      const templates = ["orderKnown", "returns", "callBack", "bestsellers"].flatMap((state) =>
        (flow.states[state]!.actions ?? []).filter((a: FlowAction) => "template" in a),
      );
      flow.states.welcome!.actions!.push(...templates);
    }),
  }),
);
const people = new People(file);
afterEach(() => people.closeAll());

describe("the console shows the bot's templates (issue 26)", () => {
  it.each(["light", "dark"] as const)(
    "all five, read-only, in the chat's history; axe finds nothing (%s)",
    async (scheme) => {
      await people.visitorAsksForAdvisor();
      const advisor = await people.advisorSignsIn((page) =>
        page.emulateMedia({ colorScheme: scheme }),
      );
      const accept = advisor.getByRole("button", { name: /Accept chat with/ });
      await accept.waitFor(BOUND);
      await accept.click();
      await advisor.getByText("Sam has joined the chat").waitFor(BOUND);
      const shown = advisor.locator(".picker[data-template]");
      await expect
        .poll(() => shown.evaluateAll((els) => els.map((e) => e.getAttribute("data-template"))), {
          timeout: 30_000,
        })
        .toEqual(["Panel", "QuickReply", "TimePicker", "Carousel", "ListPicker"]);
      // Read-only: nothing in a template can be pressed.
      expect(await shown.locator("button, a, input").count()).toBe(0);
      expect(await advisor.locator(".picker", { hasText: "A-10042" }).count()).toBe(1);
      expect(await advisor.locator(".picker .card").count()).toBe(4);
      expect(await violations(advisor)).toEqual([]);
      await screenshot(advisor, `templates-${scheme}`);
    },
  );
});
