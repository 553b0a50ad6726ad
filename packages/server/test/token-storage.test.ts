import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectParticipant } from "./support/client.js";
import { ENGINES } from "./support/databases.js";
import { tablesHolding } from "./support/db-search.js";
import { START_TIMEOUT_MS, startServer, type TestServer } from "./support/server.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe.each(ENGINES)("token storage (%s)", (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  }, START_TIMEOUT_MS);
  afterAll(() => server?.close(), START_TIMEOUT_MS);

  it("participant, connection and websocket tokens are random and stored only as their SHA-256", async () => {
    const db = server.built.deps.db;
    const chat = await server.startChat();
    const connected = await connectParticipant(server.url, chat.participantToken);
    const socketToken = new URL(connected.websocketUrl).searchParams.get("token")!;
    const tokens = [chat.participantToken, connected.connectionToken, socketToken];
    for (const token of tokens) {
      expect(token.length).toBeGreaterThanOrEqual(43); // ≥ 256 bits, base64url
      expect(await tablesHolding(db, token)).toEqual([]);
    }
    expect(new Set(tokens).size).toBe(3);
    const [row] = await db.query<{ token_hash: string }>(
      "SELECT token_hash FROM participants WHERE participant_id = $1",
      [chat.participantId],
    );
    expect(row!.token_hash).toBe(sha256(chat.participantToken));
    const other = await server.startChat();
    expect(other.participantToken).not.toBe(chat.participantToken);
  });
});
