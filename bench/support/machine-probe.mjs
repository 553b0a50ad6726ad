// What the machine does during a traffic window, sampled from /proc (Linux; empty elsewhere):
// each core's busy share (mean and the busiest 100 ms) and the share the hypervisor stole from
// it (a virtual machine's neighbours: a slow hour), and the CPU PostgreSQL's processes used
// (every process named `postgres` this user can read), so a tail can be laid to the core that
// filled, or to the database beside the generator.
import { readFileSync } from "node:fs";
import { cpuSeconds, pidsNamed } from "./server-launch.mjs";

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

/**
 * PostgreSQL's CPU seconds from now on, summed over its processes: those running now from what
 * they had used, those it starts later (a pool replaces its connections) from nothing. Each is
 * read at every `sample()` (what one that exits uses after its last reading is missed; new ones
 * are looked for once a second), `used()` answers the sum.
 */
function postgresCpu() {
  const first = new Map();
  const last = new Map();
  const read = (pid) => {
    const seconds = cpuSeconds(pid);
    if (Number.isFinite(seconds)) last.set(pid, seconds);
  };
  for (const pid of pidsNamed("postgres")) {
    read(pid);
    if (last.has(pid)) first.set(pid, last.get(pid));
  }
  let lookedAt = performance.now();
  return {
    sample() {
      if (performance.now() - lookedAt >= 1000) {
        lookedAt = performance.now();
        for (const pid of pidsNamed("postgres")) if (!last.has(pid)) last.set(pid, 0);
      }
      for (const pid of last.keys()) read(pid);
    },
    used() {
      this.sample();
      let total = 0;
      for (const [pid, seconds] of last) total += seconds - (first.get(pid) ?? 0);
      return total;
    },
  };
}

/**
 * Starts sampling; `stop()` answers { cores: [{ mean, max, stolen }] (shares of each core), postgres
 * (PostgreSQL's CPU as a share of one core) } over the time in between.
 */
export function machineProbe() {
  const first = coreTicks();
  const postgres = postgresCpu();
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
    postgres.sample();
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
      return { cores, postgres: postgres.used() / seconds };
    },
  };
}
