import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AgentApiPath,
  ContentType,
  ParticipantPath,
  type ChatsResponse,
  type Item,
} from "@chat-widget/protocol";
import { afterAll, describe, expect, it, vi } from "vitest";
import { Advisor, isAssistant, isBotText, isPicker, signIn } from "./features/helpers.js";
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

async function transcript(url: string, connectionToken: string): Promise<Item[]> {
  const r = await call<{ Transcript: Item[] }>(
    url,
    ParticipantPath.GetTranscript,
    connectionToken,
    {
      MaxResults: 100,
      SortOrder: "ASCENDING",
    },
  );
  expect(r.status).toBe(200);
  return r.body.Transcript;
}

/** The flow's one SYSTEM participant joining (it speaks as the assistant and as the bot). */
const isFlowJoined = (i: Item) =>
  i.ContentType === ContentType.PARTICIPANT_JOINED && i.ParticipantRole === "SYSTEM";

describe.each(["pglite", "postgres"] as const)("restart (%s)", (engine) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  }, START_TIMEOUT_MS);

  /** A store that outlives the servers started on it, removed after the tests. */
  async function store() {
    const s = await durableStore(engine);
    cleanups.push(s.cleanup);
    return { database: s.database, env: s.env };
  }

  it(
    "a restart loses nothing: acknowledged messages, order, tokens and attachment URLs survive",
    async () => {
      const durable = await store();
      const first = await startServer(engine, durable);
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

      const second = await startServer(engine, durable);
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

  it(
    "after a restart the console's chat list still gives the advisor a participant token that connects",
    async () => {
      const durable = await store();
      const first = await startServer(engine, { ...durable, features: true });
      const advisor = await signIn(first);
      await advisor.setAvailability("Available");
      const chat = await first.startChat();
      await first.built.deps.db.query(
        "INSERT INTO agent_contacts (contact_id, queue, queued_at, status) VALUES ($1, 'advisors', now(), 'waiting')",
        [chat.contactId],
      );
      const accepted = await advisor.accept(chat.contactId);
      expect(accepted.status).toBe(200);
      await first.close();

      const second = await startServer(engine, { ...durable, features: true });
      try {
        const again = new Advisor(second, advisor.token);
        const chats = await again.request<ChatsResponse>(AgentApiPath.Chats);
        const listed = chats.body.Chats.find((c) => c.ContactId === chat.contactId)!;
        expect(listed.ParticipantToken).toBe(accepted.body.ParticipantToken);
        const connected = await call(
          second.url,
          ParticipantPath.CreateParticipantConnection,
          listed.ParticipantToken,
          { Type: ["CONNECTION_CREDENTIALS"], ConnectParticipant: true },
        );
        expect(connected.status).toBe(200);
      } finally {
        await second.close();
      }
    },
    START_TIMEOUT_MS * 2,
  );

  it.each([
    [
      "after the flow's participant joined",
      "addParticipant",
      (args: unknown[]) => args[1] === "SYSTEM",
      isFlowJoined,
    ],
    [
      // The flow's lines commit together: once the bot's text is answered, the list picker
      // posted with it is committed too, and the step is not yet marked performed.
      "after the flow's lines were committed",
      "postMessage",
      (_: unknown[], result: unknown) => isBotText(result as Item),
      isBotText,
    ],
  ] as const)(
    "a flow step cut short by a crash %s is completed after the restart: each of its items is in the transcript exactly once",
    async (_point, method, crashes, committed) => {
      const durable = await store();
      const first = await startServer(engine, { ...durable, features: true });
      // The call commits, then the process dies before it returns (once).
      const centre = first.built.deps.centre as unknown as Record<
        string,
        (...args: unknown[]) => Promise<unknown>
      >;
      const original = centre[method]!.bind(centre);
      let crashed = false;
      centre[method] = async (...args: unknown[]) => {
        const result = await original(...args);
        if (!crashed && crashes(args, result)) {
          crashed = true;
          throw new Error("crash");
        }
        return result;
      };
      const chat = await first.startChat();
      const { connectionToken } = await connectParticipant(first.url, chat.participantToken);
      await vi.waitFor(() => expect(crashed).toBe(true), { timeout: 10_000 });
      const before = await transcript(first.url, connectionToken);
      expect(before.filter(committed)).toHaveLength(1);
      expect(before.filter(isPicker)).toHaveLength(method === "postMessage" ? 1 : 0);
      await first.close();

      const second = await startServer(engine, { ...durable, features: true });
      try {
        await vi.waitFor(
          async () => {
            const [row] = await second.built.deps.db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM flow_positions WHERE pending_effects <> '[]'::jsonb",
            );
            expect(row!.n).toBe(0);
          },
          { timeout: 10_000 },
        );
        const after = await transcript(second.url, connectionToken);
        expect(after.filter(isAssistant).map((i) => i.Content)).toEqual([
          "Hi! 👋 Welcome to the **Demo Shop**. I'm the shop assistant.",
        ]);
        expect(after.filter(isFlowJoined)).toHaveLength(1);
        expect(after.filter(isBotText).map((i) => i.Content)).toEqual([
          "Please choose one of the options below.",
        ]);
        expect(after.filter(isPicker)).toHaveLength(1);
        expect(after.at(-1)).toMatchObject({ ContentType: ContentType.INTERACTIVE_MESSAGE });
      } finally {
        await second.close();
      }
    },
    START_TIMEOUT_MS * 2,
  );
});
