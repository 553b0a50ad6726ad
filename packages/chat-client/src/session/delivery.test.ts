import { afterEach, describe, expect, it, vi } from "vitest";
import { ContentType, type GetTranscriptRequest, type Item } from "@chat-widget/protocol";
import { createHarness, flush } from "../test-support/harness.js";

afterEach(() => vi.useRealTimers());

const at = (s: number) => new Date(Date.parse("2025-01-01T10:00:00.000Z") + s * 1000).toISOString();

async function connected() {
  const h = createHarness();
  const delivered: Item[] = [];
  h.session.onMessage((e) => delivered.push(e.data));
  await h.session.connect();
  h.manager.reconnect();
  await flush();
  const transcriptRequests = () =>
    h.service.calls("GetTranscript").map((r) => r.body as GetTranscriptRequest);
  return { ...h, delivered, ids: () => delivered.map((i) => i.Id), transcriptRequests };
}

describe("nothing lost, nothing twice", () => {
  it("an item arriving twice on the websocket is delivered once", async () => {
    const h = await connected();
    const m = h.item({ Id: "m1" });
    h.manager.item(m);
    h.manager.item(m);
    expect(h.ids()).toEqual(["m1"]);
  });

  it("an own send reaches onMessage from the server's stream, once, not from the send's answer", async () => {
    const h = await connected();
    h.service.on("SendMessage", () => ({ body: { Id: "own", AbsoluteTime: at(1) } }));
    const result = await h.session.sendMessage({ message: "hello", contentType: "text/plain" });
    expect(result.data.Id).toBe("own");
    expect(h.ids()).toEqual([]);
    const echo = h.item({ Id: "own", AbsoluteTime: at(1), ParticipantRole: "CUSTOMER" });
    h.manager.item(echo);
    h.manager.item(echo);
    expect(h.delivered).toEqual([expect.objectContaining({ Id: "own", Content: "hello" })]);
  });

  it("the answer to an own send does not move the repair position: the other side's items sent before it are repaired", async () => {
    const h = await connected();
    h.manager.item(h.item({ Id: "a", AbsoluteTime: at(1) }));
    h.manager.lose();
    // While the socket is down the advisor writes b; the visitor's own message is stored after it.
    h.service.on("SendMessage", () => ({ body: { Id: "own", AbsoluteTime: at(3) } }));
    await h.session.sendMessage({ message: "mine", contentType: "text/plain" });
    h.service.on("GetTranscript", () => ({
      body: {
        Transcript: [
          h.item({ Id: "a", AbsoluteTime: at(1) }),
          h.item({ Id: "b", AbsoluteTime: at(2) }),
          h.item({ Id: "own", AbsoluteTime: at(3), ParticipantRole: "CUSTOMER" }),
        ],
      },
    }));
    h.manager.reconnect();
    await flush();
    expect(h.transcriptRequests().at(-1)!.StartPosition).toEqual({ Id: "a" });
    expect(h.ids()).toEqual(["a", "b", "own"]);
  });

  it("the transcript is read only once the aws/chat subscription is confirmed, not when the socket opens", async () => {
    const h = createHarness();
    const delivered: string[] = [];
    h.session.onMessage((e) => delivered.push(e.data.Id));
    await h.session.connect();
    h.manager.gain();
    await flush();
    expect(h.service.calls("GetTranscript")).toHaveLength(0);
    // Items committed while the socket was opening are only in the transcript.
    h.service.transcript = [
      h.item({
        Id: "joined",
        AbsoluteTime: at(0),
        Type: "EVENT",
        ContentType: ContentType.PARTICIPANT_JOINED,
      }),
      h.item({ Id: "greeting", AbsoluteTime: at(1) }),
    ];
    h.manager.subscribed(["aws/other"]);
    await flush();
    expect(h.service.calls("GetTranscript")).toHaveLength(0);
    h.manager.subscribed();
    await flush();
    expect(h.service.calls("GetTranscript").map((r) => r.body)).toEqual([
      { MaxResults: 100, ScanDirection: "BACKWARD", SortOrder: "ASCENDING", StartPosition: {} },
    ]);
    expect(delivered).toEqual(["joined", "greeting"]);
  });

  it("after a reconnect the client reads the transcript from the last item the stream brought and hands the missed items to onMessage in order, once each", async () => {
    const h = await connected();
    h.manager.item(h.item({ Id: "a", AbsoluteTime: at(1) }));
    h.manager.item(h.item({ Id: "b", AbsoluteTime: at(2) }));
    h.manager.lose();
    h.service.transcript = [
      h.item({ Id: "b", AbsoluteTime: at(2) }),
      h.item({ Id: "d", AbsoluteTime: at(4) }),
      h.item({ Id: "c", AbsoluteTime: at(3) }),
    ];
    h.manager.reconnect();
    await flush();
    expect(h.transcriptRequests().at(-1)).toEqual({
      MaxResults: 100,
      ScanDirection: "FORWARD",
      SortOrder: "ASCENDING",
      StartPosition: { Id: "b" },
    });
    expect(h.ids()).toEqual(["a", "b", "c", "d"]);
    // A later echo of a repaired item is not delivered again.
    h.manager.item(h.item({ Id: "c", AbsoluteTime: at(3) }));
    expect(h.ids()).toEqual(["a", "b", "c", "d"]);
  });

  it("the repair follows NextToken to the last page, however many pages there are", async () => {
    const h = await connected();
    h.manager.item(h.item({ Id: "m0", AbsoluteTime: at(0) }));
    h.manager.lose();
    const PAGES = 30;
    h.service.on("GetTranscript", (r) => {
      const page = r.body!.NextToken ? Number(r.body!.NextToken) : 1;
      return {
        body: {
          Transcript: [h.item({ Id: `m${page}`, AbsoluteTime: at(page) })],
          ...(page < PAGES ? { NextToken: String(page + 1) } : {}),
        },
      };
    });
    h.manager.reconnect();
    await flush();
    const repairReads = () => h.transcriptRequests().slice(1); // after the first connection's read
    for (let i = 0; i < 10 && repairReads().length < PAGES; i++) await flush();
    expect(repairReads()).toHaveLength(PAGES);
    expect(repairReads().every((r) => (r.StartPosition as { Id?: string }).Id === "m0")).toBe(true);
    expect(h.ids()).toEqual(Array.from({ length: PAGES + 1 }, (_, i) => `m${i}`));
  });

  it("live items arriving during a repair wait behind the missed items", async () => {
    const h = await connected();
    h.manager.item(h.item({ Id: "a", AbsoluteTime: at(1) }));
    h.manager.lose();
    let release!: () => void;
    h.service.on(
      "GetTranscript",
      () =>
        new Promise(
          (resolve) =>
            (release = () =>
              resolve({ body: { Transcript: [h.item({ Id: "b", AbsoluteTime: at(2) })] } })),
        ),
    );
    h.manager.reconnect();
    await flush();
    h.manager.item(h.item({ Id: "c", AbsoluteTime: at(3) }));
    h.manager.item(h.item({ Id: "b", AbsoluteTime: at(2) }));
    expect(h.ids()).toEqual(["a"]);
    release();
    await flush();
    expect(h.ids()).toEqual(["a", "b", "c"]);
  });

  it("a repair read that gets no answer is tried again after 1 s, then 2 s, holding the live items until the missed ones are delivered", async () => {
    const h = await connected();
    h.manager.item(h.item({ Id: "a", AbsoluteTime: at(1) }));
    h.manager.lose();
    const before = h.transcriptRequests().length;
    const reads = () => h.transcriptRequests().length - before;
    h.service.on("GetTranscript", () => {
      throw new TypeError("Failed to fetch");
    });
    h.manager.reconnect();
    await flush();
    h.manager.item(h.item({ Id: "c", AbsoluteTime: at(3) }));
    expect(reads()).toBe(1);
    vi.advanceTimersByTime(999);
    await flush();
    expect(reads()).toBe(1);
    vi.advanceTimersByTime(1);
    await flush();
    expect(reads()).toBe(2);
    vi.advanceTimersByTime(1999);
    await flush();
    expect(reads()).toBe(2);
    expect(h.ids()).toEqual(["a"]);
    h.service.on("GetTranscript", () => ({
      body: { Transcript: [h.item({ Id: "b", AbsoluteTime: at(2) })] },
    }));
    vi.advanceTimersByTime(1);
    await flush();
    expect(reads()).toBe(3);
    expect(h.transcriptRequests().at(-1)!.StartPosition).toEqual({ Id: "a" });
    expect(h.ids()).toEqual(["a", "b", "c"]);
  });

  it("a new confirmed subscription while a failed read waits reads at once", async () => {
    const h = await connected();
    h.manager.lose();
    h.service.on("GetTranscript", () => {
      throw new TypeError("Failed to fetch");
    });
    h.manager.reconnect();
    await flush();
    expect(h.transcriptRequests()).toHaveLength(2); // the first connection's read, then this one
    h.service.on("GetTranscript", () => ({ body: { Transcript: [] } }));
    h.manager.subscribed();
    await flush();
    expect(h.transcriptRequests()).toHaveLength(3);
    vi.advanceTimersByTime(60_000);
    await flush();
    expect(h.transcriptRequests()).toHaveLength(3);
  });

  it("a repair read refused for good (400) is not retried and the held live items are delivered", async () => {
    const h = await connected();
    h.manager.lose();
    h.service.on("GetTranscript", () => ({ status: 400, body: { __type: "ValidationException" } }));
    h.manager.reconnect();
    h.manager.item(h.item({ Id: "x" }));
    await flush();
    expect(h.ids()).toEqual(["x"]);
    const reads = h.transcriptRequests().length;
    vi.advanceTimersByTime(60_000);
    await flush();
    expect(h.transcriptRequests()).toHaveLength(reads);
  });

  it("once the participant is disconnected, a waiting repair read is not tried again", async () => {
    const h = await connected();
    h.manager.lose();
    h.service.on("GetTranscript", () => {
      throw new TypeError("Failed to fetch");
    });
    h.manager.reconnect();
    await flush();
    const reads = h.transcriptRequests().length;
    await h.session.disconnectParticipant();
    vi.advanceTimersByTime(60_000);
    await flush();
    expect(h.transcriptRequests()).toHaveLength(reads);
  });

  it("items the application fetched with getTranscript are not handed to onMessage again, and do not move the repair position", async () => {
    const h = await connected();
    h.manager.item(h.item({ Id: "first", AbsoluteTime: at(0) }));
    h.service.transcript = [
      h.item({ Id: "old", AbsoluteTime: at(1) }),
      h.item({ Id: "newest", AbsoluteTime: at(2) }),
    ];
    await h.session.getTranscript();
    h.manager.item(h.item({ Id: "old", AbsoluteTime: at(1) }));
    h.manager.lose();
    h.manager.reconnect();
    await flush();
    expect(h.ids()).toEqual(["first"]);
    // "old" came from the stream (already known, so not delivered) and is the position.
    expect(h.transcriptRequests().at(-1)!.StartPosition).toEqual({ Id: "old" });
  });

  it("typing events do not move the repair position", async () => {
    const h = await connected();
    h.manager.item(h.item({ Id: "a", AbsoluteTime: at(1) }));
    h.manager.item(
      h.item({ Id: "t", AbsoluteTime: at(2), Type: "EVENT", ContentType: ContentType.TYPING }),
    );
    h.manager.lose();
    h.manager.reconnect();
    await flush();
    expect(h.transcriptRequests().at(-1)!.StartPosition).toEqual({ Id: "a" });
  });
});

describe("streamed message stitching by Id (docs/protocol.md §3.4.1)", () => {
  const chunk = (
    h: Awaited<ReturnType<typeof connected>>,
    n: number,
    text: string,
    completed = false,
  ) =>
    h.item({
      Id: "s1",
      Content: text,
      AbsoluteTime: at(n),
      ParticipantRole: "SYSTEM",
      DisplayName: "BOT",
      MessageMetadata: { MessageId: "s1", MessageCompleted: completed, ChunkNumber: n },
    });

  it("each in-order chunk yields the text so far with chunk 1's time; the completed item replaces the chunks", async () => {
    const h = await connected();
    h.manager.item(chunk(h, 1, "Hel"));
    h.manager.item(chunk(h, 2, "lo"));
    h.manager.item(chunk(h, 4, "??"));
    h.manager.item(chunk(h, 3, " there"));
    h.manager.item(chunk(h, 4, "Hello there!", true));
    expect(h.delivered.map((i) => [i.Id, i.Content, i.AbsoluteTime])).toEqual([
      ["s1", "Hel", at(1)],
      ["s1", "Hello", at(1)],
      ["s1", "Hello there", at(1)],
      ["s1", "Hello there!", at(4)],
    ]);
    h.manager.item(chunk(h, 4, "Hello there!", true));
    expect(h.delivered).toHaveLength(4);
  });

  it("a first chunk whose ChunkNumber is not 1 is ignored", async () => {
    const h = await connected();
    h.manager.item(chunk(h, 2, "lo"));
    expect(h.delivered).toHaveLength(0);
  });
});
