import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Each file's seconds in a recent full run (`SAVE_TEST_DURATIONS=1 npx vitest run` writes it). */
export const DURATIONS_FILE = "scripts/test-durations.json";

/** The key of a file in DURATIONS_FILE: `<project>:<path from the root>`. */
export const durationKey = (project: string, file: string): string => `${project}:${file}`;

/**
 * Runs the slowest files first, whatever their project, so the long fault scenarios and browser
 * files start at once and overlap with the many short ones instead of queueing at the end (a
 * fresh clone has no Vitest cache, and Vitest's own order runs the projects one after another by
 * name and each project's files largest first). Files the list does not know follow, in
 * Vitest's own order.
 */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds: Record<string, number> = existsSync(DURATIONS_FILE)
      ? (JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as Record<string, number>)
      : {};
    const known = (spec: TestSpecification): number =>
      seconds[durationKey(spec.project.name, relative(process.cwd(), spec.moduleId))] ?? -1;
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: unknown files (-1) keep Vitest's order among themselves.
    return sorted.sort((a, b) => known(b) - known(a));
  }
}
