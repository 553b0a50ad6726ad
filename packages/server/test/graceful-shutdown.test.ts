/**
 * SIGTERM on a real server process (issue 10, "graceful shutdown that drains websockets"):
 * /readyz turns 503 at once while chats still work for DRAIN_DELAY_MS; then websockets are
 * closed with 1001 (going away, so clients reconnect elsewhere), an upload in progress is
 * still answered, and the process exits 0. A request that never finishes is cut after
 * SHUTDOWN_TIMEOUT_MS instead of holding the process up.
 */
import type { ChildProcess } from "node:child_process";
import { ParticipantPath } from "@chat-widget/protocol";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { CLOSE_GOING_AWAY } from "../src/participant/socket-hub.js";
import { postStartChat } from "./features/helpers.js";
import { startChildServer, type ChildServer } from "./support/child-server.js";
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "./support/databases.js";
import { call, connectParticipant, FrameClient } from "./support/client.js";
import { openUpload, waitFor } from "./support/raw-upload.js";

const UPLOAD_BYTES = 64 * 1024;
/** Each request's "incoming request" line (at debug) tells these tests it is in progress. */
const LOG_LEVEL = "debug";

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

/** A customer with a subscribed websocket and an upload whose body is half sent. */
async function customerUploading(server: ChildServer) {
  const started = await postStartChat(server);
  expect(started.status).toBe(200);
  const { ParticipantToken } = started.body.data.startChatResult;
  const connection = await connectParticipant(server.url, ParticipantToken);
  const socket = await FrameClient.subscribed(connection.websocketUrl);
  const upload = await call<{ UploadMetadata: { Url: string } }>(
    server.url,
    ParticipantPath.StartAttachmentUpload,
    connection.connectionToken,
    {
      ContentType: "application/pdf",
      AttachmentSizeInBytes: UPLOAD_BYTES,
      AttachmentName: "statement.pdf",
      ClientToken: "shutdown-upload",
    },
  );
  expect(upload.status).toBe(200);
  const put = openUpload(
    upload.body.UploadMetadata.Url,
    { "Content-Type": "application/pdf" },
    UPLOAD_BYTES,
  );
  put.reply.catch(() => {}); // the second test's upload is cut; it asserts that itself
  put.req.write(Buffer.alloc(UPLOAD_BYTES / 2, 1));
  // In progress once the server has read its headers (until then the connection counts as idle).
  await waitFor(() => server.output().includes('"method":"PUT"'), "the upload to begin");
  return { token: connection.connectionToken, socket, put };
}

describe("graceful shutdown on SIGTERM (a real server process)", () => {
  let server: ChildServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("drains: /readyz 503 while chats still work, then websockets close with 1001, the upload in progress is answered, exit 0", async () => {
    // Windows far wider than the steps inside them take, even on a loaded machine.
    server = await startChildServer(
      {
        DATA_DIR: "memory",
        LOG_LEVEL,
        DRAIN_DELAY_MS: "12000",
        SHUTDOWN_TIMEOUT_MS: "60000",
        // The upload pauses through the whole drain on purpose: not refused as too slow.
        UPLOAD_MIN_BYTES_PER_SECOND: "0",
      },
      120_000,
    );
    const s = server;
    const customer = await customerUploading(s);
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    const exit = exited(s.child);

    s.child.kill("SIGTERM");
    await waitFor(async () => (await fetch(`${s.url}/readyz`)).status === 503, "/readyz 503");
    const ready = await fetch(`${s.url}/readyz`);
    expect(await ready.json()).toEqual({ ok: false, draining: true });
    // Still serving chats while the load balancer takes the process out.
    const sent = await call(s.url, ParticipantPath.SendMessage, customer.token, {
      ContentType: "text/plain",
      Content: "still here",
      ClientToken: "during-drain",
    });
    expect(sent.status).toBe(200);
    expect(customer.socket.closed).toBeNull();

    await waitFor(() => customer.socket.closed !== null, "the websocket to close", 60_000);
    expect(customer.socket.closed).toEqual({
      code: CLOSE_GOING_AWAY,
      reason: "server shutting down",
    });
    // The listener is closed now; the upload begun before is still read to its end and answered.
    customer.put.req.end(Buffer.alloc(UPLOAD_BYTES / 2, 2));
    expect((await customer.put.reply).status).toBe(200);
    expect(await exit).toBe(0);
  }, 180_000);

  it("a request that never finishes is cut after SHUTDOWN_TIMEOUT_MS and the process still exits 0", async () => {
    server = await startChildServer(
      { DATA_DIR: "memory", LOG_LEVEL, SHUTDOWN_TIMEOUT_MS: "1000" },
      120_000,
    );
    const s = server;
    const customer = await customerUploading(s);
    const exit = exited(s.child);
    s.child.kill("SIGTERM");
    // The default REQUEST_TIMEOUT_MS (300 s) would otherwise hold the stalled upload and the process.
    expect(await exit).toBe(0);
    await expect(customer.put.reply).rejects.toThrow();
    expect(s.output()).toContain("requests still in progress after SHUTDOWN_TIMEOUT_MS (1000 ms)");
  }, 180_000);

  it("a websocket that never answers the close frame is cut after SHUTDOWN_TIMEOUT_MS, not ws's 30 s", async () => {
    server = await startChildServer(
      { DATA_DIR: "memory", LOG_LEVEL, SHUTDOWN_TIMEOUT_MS: "1000" },
      120_000,
    );
    const s = server;
    const started = await postStartChat(s);
    const { ParticipantToken } = started.body.data.startChatResult;
    const connection = await connectParticipant(s.url, ParticipantToken);
    const silent = new WebSocket(connection.websocketUrl);
    await new Promise((resolve, reject) => silent.once("open", resolve).once("error", reject));
    silent.pause(); // reads nothing more: the server's close frame is never answered
    const socketClosed = new Promise<void>((resolve) => silent.once("close", () => resolve()));
    const exit = exited(s.child);
    s.child.kill("SIGTERM");
    // Without the cut the process waits ws's 30 s close timeout for the answer; bounded well
    // below that, well above 1 s on a loaded machine.
    const code = await Promise.race([
      exit,
      new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 20_000)),
    ]);
    expect(code).toBe(0);
    silent.resume();
    await socketClosed;
    expect(s.output()).toContain("requests still in progress after SHUTDOWN_TIMEOUT_MS (1000 ms)");
  }, 180_000);

  it("gone within DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS and a margin, even with a request stuck on a lock in the store (issue 23)", async () => {
    const database: TestDatabase = await createTestDatabase("postgres");
    const locker = new pg.Client({
      connectionString: database.databaseUrl || TEST_DATABASE_URL,
    });
    try {
      server = await startChildServer(
        { DATABASE_URL: database.databaseUrl, LOG_LEVEL, SHUTDOWN_TIMEOUT_MS: "1000" },
        120_000,
      );
      const s = server;
      const started = await postStartChat(s);
      const { ContactId, ParticipantToken } = started.body.data.startChatResult;
      const connection = await connectParticipant(s.url, ParticipantToken);
      // Another client holds the contact's row: the message below waits on it for ever.
      await locker.connect();
      await locker.query("BEGIN");
      await locker.query("SELECT 1 FROM contacts WHERE contact_id = $1 FOR UPDATE", [ContactId]);
      const stuck = call(s.url, ParticipantPath.SendMessage, connection.connectionToken, {
        ContentType: "text/plain",
        Content: "waits on the lock",
        ClientToken: "stuck",
      }).catch(() => "cut");
      await waitFor(
        () => s.output().includes('"url":"/participant/message"'),
        "the message request to begin",
      );
      const exit = exited(s.child);
      s.child.kill("SIGTERM");
      // Without the deadline it waits on the lock for as long as the other client holds it.
      const code = await Promise.race([
        exit,
        new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 30_000)),
      ]);
      expect(code).toBe(1);
      expect(s.output()).toContain("still shutting down 1500 ms after SIGTERM: exiting now");
      expect(await stuck).toBe("cut");
    } finally {
      await locker.end().catch(() => {});
      await database.drop();
    }
  }, 180_000);
});
