import { chromium } from "playwright-core";
import { launchServer, UNLIMITED_RATE } from "./support/server-launch.mjs";
import { startShop } from "./support/shop-page.mjs";
import { installTimingProbe } from "./support/timing-probe.mjs";
const server = await launchServer({ DATA_DIR: "memory", ...UNLIMITED_RATE });
const shop = await startShop(server.url, "/tmp/old61/packages/widget/dist");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
for (const path of ["/widget", "/baseline", "/widget", "/baseline"]) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(installTimingProbe);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(`${shop.url}${path}`, { waitUntil: "load" });
  await page.locator("chat-widget button.launcher").waitFor();
  await page.waitForTimeout(1000);
  await page.locator("chat-widget button.launcher").click();
  await page.waitForFunction(() => window.__widgetTiming.optionsEnabled !== undefined);
  const r = await page.evaluate(() => {
    const m = window.__widgetTiming;
    const res = performance.getEntriesByType("resource").filter((e) => e.startTime > m.click - 50).map((e) => `${e.name.split("/").slice(3).join("/").slice(0, 40)} ${Math.round(e.startTime - m.click)}→${Math.round(e.responseEnd - m.click)}`);
    return { marks: Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Math.round(v - m.click)])), res };
  });
  console.log(path, JSON.stringify(r.marks)); for (const x of r.res) console.log("   ", x);
  await context.close();
}
await browser.close(); await shop.close(); await server.stop();
