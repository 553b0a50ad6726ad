// What the machine does during a traffic window, sampled from /proc (Linux; empty elsewhere):
// each core's busy share (mean and the busiest 100 ms) and the share the hypervisor stole from
// it (a virtual machine's neighbours: a slow hour), and the CPU PostgreSQL's processes used (every process named `postgres` this user can read), so a tail can be laid to the core
// that filled, or to the database beside the generator.
import { readdirSync, readFileSync } from "node:fs";
import { cpuSeconds } from "./server-launch.mjs";

const SAMPLE_MS = 100;

/** Per core: [busy, total, stolen] clock ticks since boot. */
function coreTicks() {
  try {
    return readFileSync("/proc/stat", "utf8")
      .split("\n")
      .filter((line) => /^cpu\d+ /.test(line))
      .map((line) => {
        const [user, nice, system, idle, iowait, irq, softirq, steal] = line
          .split(/\s+/)
          .slice(1)
          .map(Number);
        const busy = user + nice + system + irq + softirq;
        return [busy, busy + idle + iowait + steal, steal];
      });
  } catch {
    return [];
  }
}

/** CPU seconds used so far by the processes named `postgres`. */
function postgresCpuSeconds() {
  let total = 0;
  let pids;
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return NaN;
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "postgres") continue;
    } catch {
      continue; // it ended meanwhile
    }
    const seconds = cpuSeconds(pid);
    if (Number.isFinite(seconds)) total += seconds;
  }
  return total;
}

/**
 * Starts sampling; `stop()` answers { cores: [{ mean, max, stolen }] (shares of each core), postgres
 * (PostgreSQL's CPU as a share of one core) } over the time in between.
 */
export function machineProbe() {
  const first = coreTicks();
  const postgres0 = postgresCpuSeconds();
  const started = performance.now();
  const peaks = first.map(() => 0);
  let last = first;
  const timer = setInterval(() => {
    const now = coreTicks();
    now.forEach(([busy, total], core) => {
      const span = total - (last[core]?.[1] ?? total);
      if (span > 0) peaks[core] = Math.max(peaks[core], (busy - last[core][0]) / span);
    });
    last = now;
  }, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      const seconds = (performance.now() - started) / 1000;
      const end = coreTicks();
      const cores = end.map(([busy, total, stolen], core) => {
        const span = Math.max(1, total - first[core][1]);
        return {
          mean: (busy - first[core][0]) / span,
          max: peaks[core],
          stolen: (stolen - first[core][2]) / span,
        };
      });
      return { cores, postgres: (postgresCpuSeconds() - postgres0) / seconds };
    },
  };
}
