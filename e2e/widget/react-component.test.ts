/**
 * Issue 25, the React component in Chromium: a React shop (react-shop/shop.tsx) bundled with
 * the widget's npm entry as published, served from its own origin, talks to the contact centre
 * on another: the hidden launcher, the shop's Help button opening the chat through the ref, the
 * widget in the component's shadow root in the visitor's language (its table fetched from the
 * contact centre), the callbacks, the unread count while minimised.
 */
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { build } from "vite";
import type { Rolldown } from "vite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useBrowserFile } from "../support/browser-file.js";
import { advisorTakes } from "./advisor.js";
import { STARTUP_MS, serveShop } from "./support.js";
import type { Shop } from "./support.js";

let context: BrowserContext | undefined;
let shop: Shop | undefined;

/** The shop's script: React, React DOM and the package's lib/ in one bundle, as a site builds it. */
async function bundleShop(): Promise<string> {
  const output = (await build({
    configFile: false,
    mode: "production",
    logLevel: "silent",
    // JSX for production React (Vitest runs with NODE_ENV=test, which would pick the dev runtime).
    oxc: { jsx: { runtime: "automatic", development: false } },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    build: {
      write: false,
      minify: false,
      lib: {
        entry: fileURLToPath(new URL("./react-shop/shop.tsx", import.meta.url)),
        formats: ["iife"],
        name: "Shop",
        fileName: () => "shop.js",
      },
    },
  })) as Rolldown.RolldownOutput[];
  const chunk = output[0]!.output.find((o) => o.type === "chunk");
  if (!chunk || chunk.type !== "chunk") throw new Error("the shop did not bundle");
  return chunk.code;
}

const file = useBrowserFile();
beforeAll(async () => {
  const script = await bundleShop();
  shop = await serveShop((request, response) => {
    if (request.url === "/shop.js") {
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(script);
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html lang="en"><head><title>React shop</title></head>
<body><div id="root" data-server="${file.centre.url}"></div><script src="/shop.js"></script></body></html>`);
  });
}, STARTUP_MS + 60_000);
afterAll(async () => {
  await shop?.close();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});

const heard = (page: Page) => page.evaluate(() => (window as unknown as { heard: string[] }).heard);

describe("the React component from the npm package (issue 25)", () => {
  it("the shop's own button opens the chat through the ref; the widget speaks French, reports each event and counts unread messages", async () => {
    context = await file.browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(shop!.url);
    await expect.poll(() => errors).toEqual([]);
    const host = page.locator("[data-chat-widget]");
    await host.waitFor({ state: "attached" });
    await expect.poll(() => host.evaluate((el) => el.shadowRoot !== null)).toBe(true);
    expect(await host.locator("button").count()).toBe(0);

    await page.locator("#help").click();
    const window = host.locator(".window");
    await window.waitFor();
    // French: the table came from the contact centre's /widget/locales/fr.json.
    await expect
      .poll(() => host.locator(".cw").getAttribute("lang"), { timeout: 15_000 })
      .toBe("fr");
    // The rare views came in by dynamic import: the bot's greeting is rendered markdown.
    await host.locator(".message.incoming strong", { hasText: "Demo Shop" }).waitFor({
      timeout: 15_000,
    });
    // The font faces are on the document, from the contact centre, and load across origins.
    const font = await page.evaluate(async () => {
      await document.fonts.load('500 14px "Poppins"');
      return {
        from: document
          .getElementById("chat-widget-fonts")
          ?.textContent?.match(/url\("([^"]+)"/)?.[1],
        loaded: document.fonts.check('500 14px "Poppins"'),
      };
    });
    expect(font).toEqual({
      from: `${file.centre.url}/widget/fonts/poppins-latin-500-normal.woff2`,
      loaded: true,
    });
    const toAdvisor = host.locator("button.option", { hasText: "Talk to an advisor" });
    await expect.poll(() => toAdvisor.isEnabled(), { timeout: 15_000 }).toBe(true);
    await toAdvisor.click();
    await expect.poll(() => heard(page), { timeout: 15_000 }).toContain("message customer");

    const stored = await page.evaluate(() => sessionStorage.getItem("chat-widget:chat"));
    const contactId = (JSON.parse(stored ?? "{}") as { chat: { ContactId: string } }).chat
      .ContactId;
    const advisor = await advisorTakes(file.centre.url, contactId);
    await page.locator("#hide").click();
    await window.waitFor({ state: "detached" });
    await advisor.send("Are you still there?");
    const help = () => page.locator("#help").textContent();
    await expect.poll(help, { timeout: 15_000 }).toBe("Help (1)");

    await page.locator("#help").click();
    await window.waitFor();
    await expect.poll(help).toBe("Help");
    const events = (await heard(page)).filter((e) => !e.startsWith("message"));
    expect(events).toEqual(["open", "minimise", "unread 1", "open", "unread 0"]);
    expect(await heard(page)).toContain("message agent");
    expect(errors).toEqual([]);
  });
});
