/** axe-core in Chromium: the WCAG 2.2 A and AA violations on a page or inside an element. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as AxeCore from "axe-core";
import type { Page } from "playwright-core";

type AxeApi = typeof AxeCore;
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);
/** WCAG 2.2 A and AA, as the European Accessibility Act asks (EN 301 549). */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/**
 * Each violation as "rule: targets", checked once the finite animations (of the page and of
 * `within`'s open shadow root) have run: mid-animation (opacity) every text would fail.
 */
export async function violations(page: Page, within?: string): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ tags, selector }) => {
      const root = selector ? document.querySelector(selector)?.shadowRoot : null;
      await Promise.all(
        [...document.getAnimations(), ...(root?.getAnimations() ?? [])]
          .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
          .map((a) => a.finished),
      );
      const axe = (window as unknown as { axe: AxeApi }).axe;
      const result = await axe.run(selector ? { include: [[selector]] } : document, {
        runOnly: { type: "tag", values: tags },
      });
      return result.violations.map(
        (v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(" ")}`,
      );
    },
    { tags: WCAG_TAGS, selector: within ?? null },
  );
}
