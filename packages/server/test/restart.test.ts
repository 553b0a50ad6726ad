import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ParticipantPath, type Item } from "@chat-widget/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { call, connectParticipant } from "./support/client.js";
import { createTestDatabase, type Engine, type TestDatabase } from "./support/databases.js";
import { START_TIMEOUT_MS, startServer } from "./support/server.js";

/** A store that outlives one server: PGlite on disk, or a PostgreSQL schema. */
async function durableStore(
  engine: Engine,
): Promise<{ database: TestDatabase; env: Record<string, string>; cleanup(): Promise<void> }> {
  if (engine === "pglite") {
    const dir = await mkdtemp(join(tmpdir(), "cc-restart-"));
    return {
      database: { databaseUrl: "", drop: async () => {} },
      env: { DATA_DIR: dir },
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const database = await createTestDatabase(engine);
  return { database, env: {}, cleanup: () => database.drop() };
}

describe.each(["pglite", "postgres"] as const)("restart (%s)", (engine) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  }, START_TIMEOUT_MS);

  it(
    "a restart loses nothing: acknowledged messages, order, tokens and attachment URLs survive",
    async () => {
      const store = await durableStore(engine);
      cleanups.push(store.cleanup);
      const first = await startServer(engine, { database: store.database, env: store.env });
      const chat = await first.startChat();
      const { connectionToken } = await connectParticipant(first.url, chat.participantToken);
      const ids: string[] = [];
      for (const text of ["one", "two", "three"]) {
        const r = await call<{ Id: string }>(
          first.url,
          ParticipantPath.SendMessage,
          connectionToken,
          { ContentType: "text/plain", Content: text },
        );
        ids.push(r.body.Id);
      }
      const started = await call<{ AttachmentId: string; UploadMetadata: { Url: string } }>(
        first.url,
        ParticipantPath.StartAttachmentUpload,
        connectionToken,
        {
          ContentType: "text/plain",
          AttachmentSizeInBytes: 5,
          AttachmentName: "note.txt",
          ClientToken: "up",
        },
      );
      await fetch(started.body.UploadMetadata.Url, {
        method: "PUT",
        headers: { "Content-Type": "text/plain" },
        body: "hello",
      });
      await call(first.url, ParticipantPath.CompleteAttachmentUpload, connectionToken, {
        AttachmentIds: [started.body.AttachmentId],
        ClientToken: "done",
      });
      const download = await call<{ Url: string }>(
        first.url,
        ParticipantPath.GetAttachment,
        connectionToken,
        { AttachmentId: started.body.AttachmentId },
      );
      const before = await call<{ Transcript: Item[] }>(
        first.url,
        ParticipantPath.GetTranscript,
        connectionToken,
        { MaxResults: 100, SortOrder: "ASCENDING" },
      );
      await first.close();

      const second = await startServer(engine, { database: store.database, env: store.env });
      try {
        const after = await call<{ Transcript: Item[] }>(
          second.url,
          ParticipantPath.GetTranscript,
          connectionToken,
          { MaxResults: 100, SortOrder: "ASCENDING" },
        );
        expect(after.status).toBe(200);
        expect(after.body.Transcript).toEqual(before.body.Transcript);
        expect(after.body.Transcript.filter((i) => i.Type === "MESSAGE").map((i) => i.Id)).toEqual(
          ids,
        );
        const next = await call<{ Id: string }>(
          second.url,
          ParticipantPath.SendMessage,
          connectionToken,
          { ContentType: "text/plain", Content: "four" },
        );
        expect(next.status).toBe(200);
        const reconnect = await call(
          second.url,
          ParticipantPath.CreateParticipantConnection,
          chat.participantToken,
          { Type: ["WEBSOCKET"] },
        );
        expect(reconnect.status).toBe(200);
        // The signing secret lives in the store, so a URL signed before the restart still works
        // (same origin path on the new port).
        const url = new URL(download.body.Url);
        const file = await fetch(second.url + url.pathname + url.search);
        expect(file.status).toBe(200);
        expect(await file.text()).toBe("hello");
      } finally {
        await second.close();
      }
    },
    START_TIMEOUT_MS * 2,
  );
});
