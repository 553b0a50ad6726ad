import { randomInt, randomUUID } from "node:crypto";
import { AgentApiPath, GatewayPath } from "@chat-widget/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectParticipant, FrameClient } from "../support/client.js";
import { http, startChatBody, startTwoProcesses, type TwoProcesses } from "./helpers.js";

/** An address of its own for each run, so runs sharing one Redis never share counts. */
const freshAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * Two server processes behind one proxy, on one PostgreSQL store and one Redis: the limits
 * hold for both together (issue 10). Before the limit store, each counted alone and the two
 * allowed twice each limit.
 */
describe("request limits shared by two processes over Redis", () => {
  let processes: TwoProcesses;
  let urls: [string, string];

  beforeAll(async () => {
    processes = await startTwoProcesses({
      TRUST_PROXY: "1",
      START_CHAT_BURST: "3",
      START_CHAT_PER_MINUTE: "1",
      WEBSOCKETS_PER_ADDRESS: "3",
    });
    urls = processes.urls;
  }, 120_000);
  afterAll(() => processes?.close());

  it("start-chat: one address gets its burst of 3 across both processes, then 429 from either", async () => {
    const address = freshAddress();
    const start = (url: string) =>
      http(url + GatewayPath.StartChat, {
        headers: { origin: url, "x-forwarded-for": address },
        body: startChatBody(),
      });
    const [a, b] = urls;
    const statuses = [];
    for (const url of [a, b, a]) statuses.push((await start(url)).status);
    expect(statuses).toEqual([200, 200, 200]);
    for (const url of [b, a]) {
      const refused = await start(url);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("60");
    }
  });

  it("sign-in: 5 wrong passwords for one account spread over both processes, then 429 from either", async () => {
    const username = `nobody-${randomUUID()}`;
    const signIn = (url: string) =>
      http(url + AgentApiPath.SignIn, {
        headers: { "x-forwarded-for": freshAddress() },
        body: { Username: username, Password: "wrong" },
      });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await signIn(urls[i % 2]!)).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    expect((await signIn(urls[1])).status).toBe(429);
    expect((await signIn(urls[0])).status).toBe(429);
  });

  it("websockets: one address holds 3 across both processes; a 4th is refused (429) by either until one closes", async () => {
    const address = freshAddress();
    /** A new chat's websocket URL, pointed at the process `url` (either serves any chat). */
    const socketUrl = async (url: string) => {
      const started = await http<{ data: { startChatResult: { ParticipantToken: string } } }>(
        url + GatewayPath.StartChat,
        { headers: { origin: url, "x-forwarded-for": freshAddress() }, body: startChatBody() },
      );
      expect(started.status).toBe(200);
      const { ParticipantToken } = started.body.data.startChatResult;
      const ws = new URL((await connectParticipant(url, ParticipantToken)).websocketUrl);
      return `${url.replace("http", "ws")}${ws.pathname}${ws.search}`;
    };
    const open = async (url: string) =>
      FrameClient.open(await socketUrl(url), { headers: { "x-forwarded-for": address } });
    const [a, b] = urls;
    const held = [await open(a), await open(b), await open(a)];
    await expect(open(b)).rejects.toThrow("unexpected response 429");
    await expect(open(a)).rejects.toThrow("unexpected response 429");
    held.shift()!.close();
    await expect
      .poll(
        () =>
          open(b).then(
            (s) => (held.push(s), "open"),
            (e: Error) => e.message,
          ),
        {
          timeout: 30_000,
          interval: 100,
        },
      )
      .toBe("open");
    for (const s of held) s.close();
  });
});
