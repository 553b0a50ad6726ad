// How much memory the contact centre (packages/server/dist, a child process) takes while it
// receives BENCH_UPLOADS (default 40) concurrent 20 MB attachment uploads, one per chat: its
// peak RSS (VmRSS from /proc, sampled every 100 ms) against its RSS before the uploads, the
// time until every upload was stored, and a download compared by SHA-256. Uploads refused
// with 503 (the server's cap on concurrent uploads) are retried after their Retry-After, as a
// client should. Each store in turn (BENCH_STORES, default "pglite,postgres"): the embedded
// PGlite on disk (a throw-away DATA_DIR, as `npm start` runs it), PostgreSQL (127.0.0.1:5432,
// database `test`, a throw-away schema; skipped with a note when it does not answer).
// PGlite is measured on a store created by an earlier start, as a server restarts on its data:
// creating the store (initdb) runs a second WebAssembly instance whose memory is garbage
// afterwards but stays resident until a full collection, which would hide what the uploads take.
// The goal: peak RSS under 400 MB. Linux only (/proc). Build first: npm run build.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ParticipantPath } from "@chat-widget/protocol";
import { startChat } from "./support/chats.mjs";
import { launchServer, UNLIMITED_RATE } from "./support/server-launch.mjs";
import { postgresSchema } from "./support/services.mjs";

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 40);
const SIZE = 20 * 1024 * 1024;
const SAMPLE_MS = 100;
const GOAL_MB = 400;
const STORES = (process.env.BENCH_STORES ?? "pglite,postgres").split(",");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const mb = (kb) => Math.round(kb / 1024);

/** VmRSS of a process in kB (0 once it is gone). */
function rssKb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

async function participant(base, path, token, body) {
  const response = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-amz-bearer": token },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** A chat's customer connection token and a started 20 MB upload. */
async function startedUpload(base, i) {
  const chat = await startChat(base);
  const { ConnectionCredentials } = await participant(
    base,
    ParticipantPath.CreateParticipantConnection,
    chat.ParticipantToken,
    { Type: ["CONNECTION_CREDENTIALS"] },
  );
  const token = ConnectionCredentials.ConnectionToken;
  const started = await participant(base, ParticipantPath.StartAttachmentUpload, token, {
    ContentType: "application/pdf",
    AttachmentSizeInBytes: SIZE,
    AttachmentName: `bench-${i}.pdf`,
    ClientToken: `bench-${i}`,
  });
  return { token, attachmentId: started.AttachmentId, url: started.UploadMetadata.Url };
}

/** PUT the file, retrying after Retry-After while the server is at its upload cap. */
async function upload(target, bytes, counts) {
  for (;;) {
    const response = await fetch(target.url, {
      method: "PUT",
      headers: { "content-type": "application/pdf" },
      body: bytes,
    });
    await response.arrayBuffer();
    if (response.status === 200) return;
    if (response.status !== 503) throw new Error(`upload: ${response.status}`);
    counts.refused++;
    const seconds = Number(response.headers.get("retry-after") ?? 1);
    // A little jitter, so the refused clients do not all come back in the same millisecond.
    await sleep(seconds * 1000 * (1 + Math.random() * 0.5));
  }
}

async function downloadHash(base, target) {
  await participant(base, ParticipantPath.CompleteAttachmentUpload, target.token, {
    AttachmentIds: [target.attachmentId],
    ClientToken: "bench-complete",
  });
  const { Url } = await participant(base, ParticipantPath.GetAttachment, target.token, {
    AttachmentId: target.attachmentId,
  });
  const response = await fetch(Url);
  return sha256(Buffer.from(await response.arrayBuffer()));
}

async function measure(name, env) {
  const server = await launchServer({ ...UNLIMITED_RATE, ...env });
  try {
    const targets = [];
    for (let i = 0; i < UPLOADS; i++) targets.push(await startedUpload(server.url, i));
    const bytes = randomBytes(SIZE);
    const idleKb = rssKb(server.pid);
    let peakKb = idleKb;
    const sampler = setInterval(() => {
      peakKb = Math.max(peakKb, rssKb(server.pid));
    }, SAMPLE_MS);
    const counts = { refused: 0 };
    const began = performance.now();
    const results = await Promise.allSettled(targets.map((t) => upload(t, bytes, counts)));
    const seconds = (performance.now() - began) / 1000;
    clearInterval(sampler);
    peakKb = Math.max(peakKb, rssKb(server.pid));
    const failed = results.filter((r) => r.status === "rejected");
    const hashOk = (await downloadHash(server.url, targets[0])) === sha256(bytes);
    const afterKb = rssKb(server.pid);
    return {
      store: name,
      uploads: `${UPLOADS - failed.length}/${UPLOADS}`,
      "503 retries": counts.refused,
      "RSS idle MB": mb(idleKb),
      "peak RSS MB": mb(peakKb),
      "RSS after MB": mb(afterKb),
      seconds: Number(seconds.toFixed(1)),
      "MB/s": Math.round((UPLOADS * SIZE) / 1024 / 1024 / seconds),
      "download hash": hashOk ? "matches" : "DIFFERS",
      goal: mb(peakKb) < GOAL_MB ? `< ${GOAL_MB} MB` : `MISSED (${GOAL_MB} MB)`,
      ...(failed.length > 0 ? { error: String(failed[0].reason) } : {}),
    };
  } finally {
    await server.stop();
  }
}

const rows = [];
let ok = true;
for (const store of STORES) {
  if (store === "pglite") {
    const dataDir = mkdtempSync(join(tmpdir(), "bench-upload-"));
    try {
      await (await launchServer({ ...UNLIMITED_RATE, DATA_DIR: dataDir })).stop(); // initdb
      rows.push(await measure("pglite (on disk)", { DATA_DIR: dataDir }));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  } else if (store === "postgres") {
    const schema = await postgresSchema();
    if (schema.unavailable) {
      console.log(`postgres skipped: ${schema.unavailable}`);
      continue;
    }
    try {
      rows.push(await measure("postgres", { DATABASE_URL: schema.databaseUrl }));
    } finally {
      await schema.drop();
    }
  }
  const last = rows.at(-1);
  if (last && (last.uploads !== `${UPLOADS}/${UPLOADS}` || last["download hash"] !== "matches")) {
    ok = false;
  }
}
console.log(`${UPLOADS} concurrent uploads of 20 MB, one per chat`);
console.table(rows);
process.exit(ok ? 0 : 1);
