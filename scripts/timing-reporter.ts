import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import type { Reporter, TestModule, TestSpecification } from "vitest/node";
import { DURATIONS_FILE, durationKey } from "./slow-first-sequencer.js";

/** Where every run writes its timing report (ignored by git). */
export const TIMING_FILE = "test-results/timing.json";
/** The slowest files printed at the end of a run. */
const SLOWEST = 15;

interface FileTiming {
  file: string;
  project: string;
  /** From the environment's set-up to its last hook: what the file costs a worker. */
  ms: number;
  /** Of which importing the file and collecting its tests. */
  importMs: number;
  tests: number;
  state: string;
  /** When the file started and ended, from the run's start: which files overlapped. */
  startMs: number;
  endMs: number;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * Writes what each test file and project cost (TIMING_FILE) and prints the slowest files, the
 * projects' sums and the run's wall time: how much the files overlap is wall ÷ sum.
 */
export default class TimingReporter implements Reporter {
  private startedAt = Date.now();
  private readonly spans = new Map<string, { startMs: number; endMs: number }>();

  onTestRunStart(_specifications: ReadonlyArray<TestSpecification>): void {
    this.startedAt = Date.now();
    this.spans.clear();
  }

  onTestModuleQueued(module: TestModule): void {
    const at = Date.now() - this.startedAt;
    this.spans.set(module.id, { startMs: at, endMs: at });
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.id);
    if (span) span.endMs = Date.now() - this.startedAt;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const wallMs = Date.now() - this.startedAt;
    const files: FileTiming[] = testModules.map((module) => {
      const d = module.diagnostic();
      const importMs = d.collectDuration + d.setupDuration;
      return {
        file: relative(process.cwd(), module.moduleId),
        project: module.project.name || "default",
        ms: Math.round(d.environmentSetupDuration + d.prepareDuration + importMs + d.duration),
        importMs: Math.round(importMs),
        tests: [...module.children.allTests()].length,
        state: module.state(),
        ...(this.spans.get(module.id) ?? { startMs: 0, endMs: 0 }),
      };
    });
    files.sort((a, b) => b.ms - a.ms);
    const sumMs = files.reduce((n, f) => n + f.ms, 0);
    const projects: Record<string, { files: number; sumMs: number }> = {};
    for (const f of files) {
      const p = (projects[f.project] ??= { files: 0, sumMs: 0 });
      p.files++;
      p.sumMs += f.ms;
    }
    mkdirSync(dirname(TIMING_FILE), { recursive: true });
    writeFileSync(
      TIMING_FILE,
      `${JSON.stringify({ at: new Date().toISOString(), wallMs, sumMs, projects, files }, null, 1)}\n`,
    );

    if (process.env.SAVE_TEST_DURATIONS) saveDurations(files);
    const alone = aloneMs(files);
    const lines = [
      `\nTiming: wall ${seconds(wallMs)}, sum of the files ${seconds(sumMs)}` +
        (sumMs > 0 ? ` (wall ÷ sum ${(wallMs / sumMs).toFixed(2)})` : "") +
        `; ${Object.entries(projects)
          .map(([name, p]) => `${name} ${seconds(p.sumMs)} in ${p.files} files`)
          .join(", ")}; written to ${TIMING_FILE}`,
      `One file at a time for ${seconds(alone)} of the wall.`,
      `The slowest ${Math.min(SLOWEST, files.length)} files:`,
      ...files
        .slice(0, SLOWEST)
        .map((f) => `  ${seconds(f.ms).padStart(8)}  ${f.project}  ${f.file}`),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}

/** How long exactly one file was running: the wall that more workers could not have shortened. */
function aloneMs(files: FileTiming[]): number {
  const edges = files.flatMap((f) => [
    { at: f.startMs, step: 1 },
    { at: f.endMs, step: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let running = 0;
  let since = 0;
  let alone = 0;
  for (const { at, step } of edges) {
    if (running === 1) alone += at - since;
    running += step;
    since = at;
  }
  return alone;
}

/** The files of a second or more, slowest first, for the sequencer (SlowFirstSequencer). */
function saveDurations(files: FileTiming[]): void {
  const seconds = Object.fromEntries(
    files
      .filter((f) => f.ms >= 1000)
      .map((f) => [durationKey(f.project, f.file), Math.round(f.ms / 100) / 10]),
  );
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(seconds, null, 2)}\n`);
}
