// Starts bench/support/server-process.mjs (the built contact centre) as a child process on a
// free loopback port with the given environment; resolves with its URL once it listens.
// `stop()` always ends the process (SIGTERM, then SIGKILL after 5 s); `cpuSeconds()` is the
// CPU time it has used; `pid` its process id (to sample its memory); `ask(message)` sends it a
// message and resolves with its answer (see server-process.mjs), or rejects once it has exited.
import { execFileSync, fork, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("./server-process.mjs", import.meta.url));
const APP = fileURLToPath(new URL("../../packages/server/dist/app.js", import.meta.url));
const READY_TIMEOUT_MS = 120_000;
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** The bench measures the server, not its limits per participant (10/s by default) and on start-chat. */
export const UNLIMITED_RATE = {
  RATE_LIMIT_BURST: "1000000",
  RATE_LIMIT_PER_SECOND: "1000000",
  START_CHAT_BURST: "1000000",
  START_CHAT_PER_MINUTE: "60000000",
  INSTANCE_START_CHAT_BURST: "1000000",
  INSTANCE_START_CHAT_PER_SECOND: "1000000",
};

/** Whether `taskset` can pin processes to cores here (Linux with util-linux, 2+ cores). */
export function canPin() {
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The ids of the processes named `name` now (Linux's /proc; none elsewhere). */
export function pidsNamed(name) {
  let pids;
  try {
    pids = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === name;
    } catch {
      return false; // it ended meanwhile
    }
  });
}

/**
 * Pins every process named `name` (PostgreSQL's, say: its postmaster, so also the backends it
 * forks later) to core `cpu`, where `taskset` exists and may (this user's own, or root);
 * answers how many it pinned and `restore()`, which sets each back to the mask it had.
 */
export function pinProcessesNamed(name, cpu) {
  const pinned = [];
  if (canPin()) {
    for (const pid of pidsNamed(name)) {
      try {
        const mask = /: ([0-9a-f]+)\s*$/.exec(
          execFileSync("taskset", ["-p", pid], { encoding: "utf8" }),
        )?.[1];
        if (!mask) continue; // not pinned: it could not be set back
        execFileSync("taskset", ["-apc", String(cpu), pid], { stdio: "ignore" });
        pinned.push([pid, mask]);
      } catch {
        // ended meanwhile, or not ours to pin
      }
    }
  }
  const restore = () => {
    for (const [pid, mask] of pinned) {
      try {
        execFileSync("taskset", ["-ap", mask, pid], { stdio: "ignore" });
      } catch {
        // ended meanwhile
      }
    }
  };
  return { count: pinned.length, restore };
}

/** Starts a Node script as a child with IPC, on core `cpu` when given and `taskset` exists. */
export function forkOn(
  script,
  { cpu, env, execArgv = [], stdio = ["ignore", "pipe", "pipe", "ipc"] } = {},
) {
  if (cpu === undefined || !canPin()) return fork(script, { env, execArgv, stdio });
  const args = ["-c", String(cpu), process.execPath, ...execArgv, script];
  return spawn("taskset", args, { env, stdio });
}

/**
 * The contact centre; `cpu` pins it to one core (with taskset, where it exists), `execArgv`
 * are Node's flags for it (e.g. --cpu-prof).
 */
export async function launchServer(env, { cpu, execArgv } = {}) {
  if (!existsSync(APP)) throw new Error(`missing ${APP}: run \`npm run build\` first`);
  const child = forkOn(ENTRY, {
    cpu,
    execArgv,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
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

  let timer;
  try {
    const url = await Promise.race([
      new Promise((resolve) => child.once("message", (m) => resolve(m.url))),
      exit.then(() => {
        throw new Error(`the contact centre exited (${exited.code ?? exited.signal}):\n${output}`);
      }),
      new Promise((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`no contact centre within ${READY_TIMEOUT_MS / 1000} s:\n${output}`)),
          READY_TIMEOUT_MS,
        );
      }),
    ]);
    /**
     * Sends `message` to the server process; resolves with its next message back, or rejects
     * (with its last output) once it has exited without one.
     */
    const ask = (message) =>
      Promise.race([
        new Promise((resolve) => {
          child.once("message", resolve);
          child.send(message);
        }),
        exit.then(() => {
          throw new Error(
            `the contact centre exited (${exited.code ?? exited.signal}):\n${output}`,
          );
        }),
      ]);
    return { url, stop, ask, pid: child.pid, cpuSeconds: () => cpuSeconds(child.pid) };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
