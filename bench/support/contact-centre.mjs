// The local contact centre from its build (packages/server/dist/main.js) in a child process:
// PGlite in memory, on a free loopback port. `stop()` always ends the process.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../../packages/server/dist/main.js", import.meta.url));
const READY_TIMEOUT_MS = 120_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the contact centre and resolves once its demo page answers 200. */
export async function startContactCentre() {
  if (!existsSync(MAIN)) {
    throw new Error(`missing ${MAIN}: run \`npm run build\` first`);
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: "memory",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk) => {
    output = (output + chunk).slice(-4000);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  let exited = null;
  const exit = new Promise((resolve) =>
    child.once("exit", (code, signal) => resolve((exited = { code, signal }))),
  );
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);

  const stop = async () => {
    process.removeListener("exit", killOnExit);
    if (exited) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exit;
    clearTimeout(timer);
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) {
      throw new Error(`the contact centre exited (${exited.code ?? exited.signal}):\n${output}`);
    }
    try {
      const response = await fetch(`${url}/`);
      if (response.ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  await stop();
  throw new Error(
    `the contact centre did not answer within ${READY_TIMEOUT_MS / 1000} s:\n${output}`,
  );
}
