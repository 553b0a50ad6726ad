import { ParticipantPath, type Item } from "@chat-widget/protocol";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, connectParticipant } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { ManualClock } from "./support/manual-clock.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const { GetTranscript, SendMessage } = ParticipantPath;

interface Page {
  InitialContactId: string;
  Transcript: Item[];
  NextToken?: string;
}

describe.each(ENGINES)("GetTranscript (%s)", (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  /** joined + m0 … m11, one second apart. */
  let token: string;
  let contactId: string;
  let all: string[];

  const page = async (body: Record<string, unknown>) =>
    call<Page>(server.url, GetTranscript, token, body);
  const contents = (p: Page) => p.Transcript.map((i) => i.Content ?? "joined");

  beforeAll(async () => {
    server = await startServer(engine, { clock });
    const chat = await server.startChat();
    contactId = chat.contactId;
    token = (await connectParticipant(server.url, chat.participantToken)).connectionToken;
    for (let i = 0; i < 12; i++) {
      clock.advance(1000);
      await call(server.url, SendMessage, token, { ContentType: "text/plain", Content: `m${i}` });
    }
    all = ["joined", ...Array.from({ length: 12 }, (_, i) => `m${i}`)];
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);
  // Each test starts with the participant's rate-limit bucket full again (burst 40, 10/s).
  beforeEach(() => clock.advance(5_000));

  it("by default returns the 10 newest items, newest first, with a NextToken (BACKWARD, DESCENDING)", async () => {
    const r = await page({});
    expect(r.status).toBe(200);
    expect(r.body.InitialContactId).toBe(contactId);
    expect(contents(r.body)).toEqual(all.slice(-10).reverse());
    expect(r.body.NextToken).toBeDefined();
  });

  it("treats an empty StartPosition as not provided, and pages BACKWARD to the oldest item with NextToken (chatjs defaults)", async () => {
    const first = await page({
      MaxResults: 5,
      ScanDirection: "BACKWARD",
      SortOrder: "ASCENDING",
      StartPosition: {},
    });
    expect(contents(first.body)).toEqual(all.slice(8, 13));
    const second = await page({
      MaxResults: 5,
      ScanDirection: "BACKWARD",
      SortOrder: "ASCENDING",
      StartPosition: {},
      NextToken: first.body.NextToken,
    });
    expect(contents(second.body)).toEqual(all.slice(3, 8));
    const third = await page({
      MaxResults: 5,
      ScanDirection: "BACKWARD",
      SortOrder: "ASCENDING",
      StartPosition: {},
      NextToken: second.body.NextToken,
    });
    expect(contents(third.body)).toEqual(all.slice(0, 3));
    expect(third.body.NextToken).toBeUndefined();
  });

  it("scans FORWARD from the oldest item in ASCENDING order", async () => {
    const first = await page({ MaxResults: 4, ScanDirection: "FORWARD", SortOrder: "ASCENDING" });
    expect(contents(first.body)).toEqual(all.slice(0, 4));
    const next = await page({
      MaxResults: 4,
      ScanDirection: "FORWARD",
      SortOrder: "DESCENDING",
      NextToken: first.body.NextToken,
    });
    expect(contents(next.body)).toEqual(all.slice(4, 8).reverse());
  });

  it("starts at StartPosition.Id, that item included, scanning FORWARD by default", async () => {
    const everything = await page({ MaxResults: 100, SortOrder: "ASCENDING" });
    const m5 = everything.body.Transcript.find((i) => i.Content === "m5")!;
    const r = await page({ MaxResults: 3, SortOrder: "ASCENDING", StartPosition: { Id: m5.Id } });
    expect(contents(r.body)).toEqual(["m5", "m6", "m7"]);
    const back = await page({
      MaxResults: 3,
      SortOrder: "ASCENDING",
      ScanDirection: "BACKWARD",
      StartPosition: { Id: m5.Id },
    });
    expect(contents(back.body)).toEqual(["m3", "m4", "m5"]);
  });

  it("starts at StartPosition.MostRecent (the Nth most recent item) and at StartPosition.AbsoluteTime", async () => {
    const recent = await page({
      MaxResults: 2,
      SortOrder: "ASCENDING",
      ScanDirection: "BACKWARD",
      StartPosition: { MostRecent: 3 },
    });
    expect(contents(recent.body)).toEqual(["m8", "m9"]);
    const everything = await page({ MaxResults: 100, SortOrder: "ASCENDING" });
    const m2 = everything.body.Transcript.find((i) => i.Content === "m2")!;
    const byTime = await page({
      MaxResults: 2,
      SortOrder: "ASCENDING",
      StartPosition: { AbsoluteTime: m2.AbsoluteTime },
    });
    expect(contents(byTime.body)).toEqual(["m2", "m3"]);
  });

  it("MaxResults 0 (the model's minimum) answers 200 with no items and a NextToken that continues from the same place", async () => {
    const empty = await page({ MaxResults: 0 });
    expect(empty.status).toBe(200);
    expect(empty.body.Transcript).toEqual([]);
    expect(empty.body.NextToken).toBeDefined();
    const newest = await page({ MaxResults: 3, NextToken: empty.body.NextToken });
    expect(contents(newest.body)).toEqual(["m11", "m10", "m9"]);

    const everything = await page({ MaxResults: 100, SortOrder: "ASCENDING" });
    const m5 = everything.body.Transcript.find((i) => i.Content === "m5")!;
    const fromM5 = await page({ MaxResults: 0, StartPosition: { Id: m5.Id } });
    expect(fromM5.body.Transcript).toEqual([]);
    const next = await page({
      MaxResults: 2,
      SortOrder: "ASCENDING",
      NextToken: fromM5.body.NextToken,
    });
    expect(contents(next.body)).toEqual(["m5", "m6"]);
    // Paging with a NextToken: a MaxResults 0 page in between skips nothing.
    const zeroThenNext = await page({ MaxResults: 0, NextToken: next.body.NextToken });
    expect(zeroThenNext.body.Transcript).toEqual([]);
    expect(zeroThenNext.body.NextToken).toBe(next.body.NextToken);
    const after = await page({
      MaxResults: 2,
      SortOrder: "ASCENDING",
      NextToken: zeroThenNext.body.NextToken,
    });
    expect(contents(after.body)).toEqual(["m7", "m8"]);
  });

  it("MaxResults 0 carries a NextToken only while items remain in the scan", async () => {
    const lastPage = await page({ MaxResults: 12 });
    const rest = await page({ MaxResults: 0, NextToken: lastPage.body.NextToken });
    expect(rest.body.NextToken).toBeDefined();
    const joined = await page({ MaxResults: 5, NextToken: rest.body.NextToken });
    expect(contents(joined.body)).toEqual(["joined"]);
    expect(joined.body.NextToken).toBeUndefined();
    const future = await page({
      MaxResults: 0,
      StartPosition: { AbsoluteTime: "9999-01-01T00:00:00Z" },
    });
    expect(future.status).toBe(200);
    expect(future.body).toEqual({ InitialContactId: contactId, Transcript: [] });
  });

  it("a StartPosition with several members starts at Id, else AbsoluteTime, else MostRecent (the model does not forbid combining them)", async () => {
    const everything = await page({ MaxResults: 100, SortOrder: "ASCENDING" });
    const m5 = everything.body.Transcript.find((i) => i.Content === "m5")!;
    const m2 = everything.body.Transcript.find((i) => i.Content === "m2")!;
    const idWins = await page({
      MaxResults: 3,
      SortOrder: "ASCENDING",
      StartPosition: { Id: m5.Id, MostRecent: 3, AbsoluteTime: m2.AbsoluteTime },
    });
    expect(idWins.status).toBe(200);
    expect(contents(idWins.body)).toEqual(["m5", "m6", "m7"]);
    const timeWins = await page({
      MaxResults: 2,
      SortOrder: "ASCENDING",
      StartPosition: { AbsoluteTime: m2.AbsoluteTime, MostRecent: 1 },
    });
    expect(contents(timeWins.body)).toEqual(["m2", "m3"]);
    // Every member given must still be well-formed.
    const badTime = await page({ StartPosition: { Id: m5.Id, AbsoluteTime: "yesterday" } });
    expect(badTime.status).toBe(400);
  });

  it("a StartPosition.Id that is not in this transcript selects nothing: 200 with no items and no NextToken", async () => {
    const other = await server.startChat();
    const otherToken = (await connectParticipant(server.url, other.participantToken))
      .connectionToken;
    const theirs = await call<Page>(server.url, GetTranscript, otherToken, { MaxResults: 1 });
    for (const Id of ["not-an-item", theirs.body.Transcript[0]!.Id]) {
      const r = await page({ StartPosition: { Id } });
      expect(r.status, Id).toBe(200);
      expect(r.body).toEqual({ InitialContactId: contactId, Transcript: [] });
    }
  });

  it("returns items with strictly increasing order and server ids, each with ContactId and InitialContactId", async () => {
    const r = await page({ MaxResults: 100, SortOrder: "ASCENDING" });
    expect(r.body.Transcript).toHaveLength(13);
    const times = r.body.Transcript.map((i) => Date.parse(i.AbsoluteTime));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(r.body.Transcript.map((i) => i.Id)).size).toBe(13);
    for (const item of r.body.Transcript) {
      expect(item.ContactId).toBe(contactId);
      expect(item.InitialContactId).toBe(contactId);
    }
  });

  it("rejects MaxResults outside 0–100, a bad NextToken and a bad time with 400 ValidationException", async () => {
    for (const body of [
      { MaxResults: -1 },
      { MaxResults: 101 },
      { MaxResults: "5" },
      { NextToken: "garbage" },
      { ScanDirection: "SIDEWAYS" },
      { StartPosition: { AbsoluteTime: "yesterday" } },
      // Times the store cannot hold, and NextTokens of this contact with impossible positions.
      ...[
        "0000-01-01T00:00:00Z",
        "-010000-01-01T00:00:00Z",
        "+275760-09-13T00:00:00.000Z",
        "2026-13-45",
      ].map((AbsoluteTime) => ({ StartPosition: { AbsoluteTime } })),
      ...[3e9, -1, 1e300, 1.5].map((s) => ({
        NextToken: Buffer.from(JSON.stringify({ c: contactId, s, d: "BACKWARD" })).toString(
          "base64url",
        ),
      })),
    ]) {
      const r = await page(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ __type: "ValidationException" });
    }
  });

  it("refuses another contact's transcript with 403 AccessDeniedException", async () => {
    const other = await server.startChat();
    const r = await page({ ContactId: other.contactId });
    expect(r.status).toBe(403);
    const otherToken = (await connectParticipant(server.url, other.participantToken))
      .connectionToken;
    const mine = await page({ MaxResults: 1 });
    const crossed = await call<Page>(server.url, GetTranscript, otherToken, {
      NextToken: mine.body.NextToken,
    });
    expect(crossed.status).toBe(400);
  });
});
