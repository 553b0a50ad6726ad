/**
 * Issue 17: ChatDurationInMinutes is honoured — a chat ends when its time runs out (60 minutes
 * to 7 days, default 25 hours), told to everyone in it by chat.ended. Time from a manual clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endExpiredChats } from "../src/contact-centre/expiry.js";
import { postStartChat } from "./features/helpers.js";
import { ManualClock } from "./support/manual-clock.js";
import { startServer, type TestServer } from "./support/server.js";

const MINUTE = 60_000;

describe("a chat's duration", () => {
  const clock = new ManualClock();
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer("pglite", { clock, features: true });
  }, 120_000);
  afterAll(() => server?.close());

  const start = (extra: Record<string, unknown> = {}) => postStartChat(server, extra);
  const status = async (contactId: string) =>
    (await server.built.deps.centre.getContact(contactId))!.status;
  const sweep = () => endExpiredChats(server.built.deps.db, server.built.deps.centre, clock);

  it("ends a chat when its ChatDurationInMinutes runs out, and one without it after 25 hours", async () => {
    const hour = (await start({ ChatDurationInMinutes: 60 })).body.data.startChatResult.ContactId;
    const standard = (await start()).body.data.startChatResult.ContactId;
    clock.advance(60 * MINUTE - 1);
    expect(await sweep()).toBe(0);
    expect(await status(hour)).toBe("active");
    clock.advance(1);
    expect(await sweep()).toBe(1);
    expect(await status(hour)).toBe("ended");
    expect(await status(standard)).toBe("active");
    clock.advance(24 * 60 * MINUTE - 1);
    expect(await sweep()).toBe(0);
    clock.advance(1);
    expect(await sweep()).toBe(1);
    expect(await status(standard)).toBe("ended");
    expect(await sweep()).toBe(0); // ended once
  });

  it("refuses a duration outside 60 minutes to 7 days (400)", async () => {
    for (const minutes of [59, 10_081, 90.5, "60"]) {
      expect((await start({ ChatDurationInMinutes: minutes })).status, String(minutes)).toBe(400);
    }
    expect((await start({ ChatDurationInMinutes: 10_080 })).status).toBe(200);
  });
});
