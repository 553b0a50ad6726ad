/**
 * Issue 26: the README's example bot (`examples/bot.mjs`, shown there verbatim) really works in
 * the flow: started as its own process, it streams its answer to the visitor's question, with
 * the order number the visitor's page reported, and hands over when asked for a person.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ContentType, type Item } from "@chat-widget/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultFlowWith } from "../support/flows.js";
import { startServer, type TestServer } from "../support/server.js";
import { isPicker, widgetCustomer, type Customer } from "./helpers.js";

const EXAMPLE = fileURLToPath(new URL("../../../../examples/bot.mjs", import.meta.url));
const README = fileURLToPath(new URL("../../../../README.md", import.meta.url));

let bot: ChildProcess;
let botUrl: string;
let server: TestServer;
let customer: Customer | undefined;

beforeAll(async () => {
  bot = spawn(process.execPath, [EXAMPLE], { env: { ...process.env, PORT: "0" } });
  const url = await new Promise<string>((resolve, reject) => {
    bot.once("exit", (code) => reject(new Error(`the example bot exited (${code})`)));
    bot.stdout!.on("data", (data: Buffer) => {
      const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(data.toString());
      if (found) resolve((botUrl = found[0]));
    });
  });
  const flowsDir = defaultFlowWith((flow) => {
    const state = flow.states.askQuestion!;
    state.answer = { ...state.answer!, from: "bot", bot: { url }, handOver: "toAdvisor" };
  });
  server = await startServer("pglite", { features: true, flowsDir });
}, 120_000);
afterAll(async () => {
  bot?.kill();
  await server?.close();
});
afterEach(() => customer?.close());

describe("the README's example bot (issue 26)", () => {
  it("is in the README as it is in examples/bot.mjs", () => {
    expect(readFileSync(README, "utf8")).toContain(readFileSync(EXAMPLE, "utf8"));
  });

  it("answers a request that is not JSON with 400, and goes on serving", async () => {
    const bad = await fetch(botUrl, { method: "POST", body: "{oops" });
    expect(bad.status).toBe(400);
    expect(bot.exitCode).toBeNull();
  });

  it("streams its answer with the visitor's order number, then hands over when asked for a person", async () => {
    customer = await widgetCustomer(server, { orderNumber: "A-10042" });
    await customer.waitFor(isPicker);
    await customer.echoBot();
    await customer.say("Ask a question");
    await customer.waitFor((i) => i.Content === "input");
    await customer.say("When does it arrive?");
    const completed = (i: Item) => i.MessageMetadata?.MessageCompleted === true;
    const answer = await customer.socket.waitForItem(completed, 15_000);
    expect(answer.Content).toBe("Your order number is A-10042. How else can I help?");
    expect(
      customer.socket.items().filter((i) => i.MessageMetadata?.MessageCompleted === false).length,
    ).toBe(answer.Content!.split(" ").length);

    await customer.say("Can I talk to a person?");
    await customer.socket.waitForItem(
      (i) => (i.Content ?? "").startsWith("Connecting you to an advisor"),
      15_000,
    );
    const said = customer.socket.items().map((i) => i.Content);
    expect(said).toContain("I'll find you a person.");
    expect(said.filter((c) => c?.includes("assistant can't answer"))).toEqual([]);
    expect(customer.items().some((i) => i.ContentType === ContentType.CHAT_ENDED)).toBe(false);
  });
});
