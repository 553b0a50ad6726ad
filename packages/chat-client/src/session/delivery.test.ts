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
  h.manager.gain();
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

  it("an own send is delivered once, whether its websocket echo comes after or before the response", async () => {
    const h = await connected();
    const result = await h.session.sendMessage({ message: "hello", contentType: "text/plain" });
    const id = result.data.Id;
    expect(h.delivered).toEqual([
      expect.objectContaining({
        Id: id,
        Content: "hello",
        ParticipantRole: "CUSTOMER",
        ParticipantId: "customer-1",
        Type: "MESSAGE",
      }),
    ]);
    h.manager.item(h.item({ Id: id, Content: "hello", ParticipantRole: "CUSTOMER" }));
    expect(h.ids()).toEqual([id]);

    h.service.on("SendMessage", () => {
      h.manager.item(
        h.item({
          Id: "echo-first",
          Content: "again",
          ParticipantRole: "CUSTOMER",
          DisplayName: "Customer",
        }),
      );
      return { body: { Id: "echo-first", AbsoluteTime: at(5) } };
    });
    await h.session.sendMessage({ message: "again", contentType: "text/plain" });
    expect(h.ids()).toEqual([id, "echo-first"]);
    expect(h.delivered[1]!.DisplayName).toBe("Customer");
  });

  it("the first connection reads the most recent transcript page and delivers what the websocket did not bring", async () => {
    const h = createHarness();
    const delivered: string[] = [];
    h.session.onMessage((e) => delivered.push(e.data.Id));
    h.service.transcript = [
      h.item({
        Id: "joined",
        AbsoluteTime: at(0),
        Type: "EVENT",
        ContentType: ContentType.PARTICIPANT_JOINED,
      }),
      h.item({ Id: "greeting", AbsoluteTime: at(1) }),
    ];
    await h.session.connect();
    h.manager.gain();
    await flush();
    expect(h.service.calls("GetTranscript")[0]!.body).toEqual({
      MaxResults: 100,
      ScanDirection: "BACKWARD",
      SortOrder: "ASCENDING",
      StartPosition: {},
    });
    expect(delivered).toEqual(["joined", "greeting"]);
  });

  it("after a reconnect the client fetches the transcript from the last item it delivered and hands the missed items to onMessage in order, once each", async () => {
    const h = await connected();
    h.manager.item(h.item({ Id: "a", AbsoluteTime: at(1) }));
    h.manager.item(h.item({ Id: "b", AbsoluteTime: at(2) }));
    h.manager.lose();
    h.service.transcript = [
      h.item({ Id: "b", AbsoluteTime: at(2) }),
      h.item({ Id: "c", AbsoluteTime: at(3) }),
      h.item({ Id: "d", AbsoluteTime: at(4) }),
    ];
    h.manager.gain();
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

  it("the repair follows NextToken until the last page", async () => {
    const h = await connected();
    h.manager.item(h.item({ Id: "a", AbsoluteTime: at(1) }));
    h.manager.lose();
    h.service.on("GetTranscript", (r) =>
      r.body!.NextToken
        ? { body: { Transcript: [h.item({ Id: "c", AbsoluteTime: at(3) })] } }
        : {
            body: {
              Transcript: [
                h.item({ Id: "a", AbsoluteTime: at(1) }),
                h.item({ Id: "b", AbsoluteTime: at(2) }),
              ],
              NextToken: "p2",
            },
          },
    );
    h.manager.gain();
    await flush();
    expect(h.transcriptRequests().at(-1)).toMatchObject({
      NextToken: "p2",
      StartPosition: { Id: "a" },
    });
    expect(h.ids()).toEqual(["a", "b", "c"]);
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
    h.manager.gain();
    await flush();
    h.manager.item(h.item({ Id: "c", AbsoluteTime: at(3) }));
    h.manager.item(h.item({ Id: "b", AbsoluteTime: at(2) }));
    expect(h.ids()).toEqual(["a"]);
    release();
    await flush();
    expect(h.ids()).toEqual(["a", "b", "c"]);
  });

  it("a failed repair read still delivers the queued live items", async () => {
    const h = await connected();
    h.manager.lose();
    h.service.on("GetTranscript", () => ({ status: 400, body: { __type: "ValidationException" } }));
    h.manager.gain();
    h.manager.item(h.item({ Id: "x" }));
    await flush();
    expect(h.ids()).toEqual(["x"]);
  });

  it("items the application fetched with getTranscript are known: not handed to onMessage again, and the repair starts after them", async () => {
    const h = await connected();
    h.service.transcript = [
      h.item({ Id: "old", AbsoluteTime: at(1) }),
      h.item({ Id: "newest", AbsoluteTime: at(2) }),
    ];
    await h.session.getTranscript();
    h.manager.item(h.item({ Id: "old", AbsoluteTime: at(1) }));
    h.manager.lose();
    h.service.transcript = [];
    h.manager.gain();
    await flush();
    expect(h.ids()).toEqual([]);
    expect(h.transcriptRequests().at(-1)!.StartPosition).toEqual({ Id: "newest" });
  });

  it("typing events do not move the repair position", async () => {
    const h = await connected();
    h.manager.item(h.item({ Id: "a", AbsoluteTime: at(1) }));
    h.manager.item(
      h.item({ Id: "t", AbsoluteTime: at(2), Type: "EVENT", ContentType: ContentType.TYPING }),
    );
    h.manager.lose();
    h.manager.gain();
    await flush();
    expect(h.transcriptRequests().at(-1)!.StartPosition).toEqual({ Id: "a" });
  });
});

describe("streamed message stitching by Id (protocol §3.4.1)", () => {
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
