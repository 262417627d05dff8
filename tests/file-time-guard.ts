import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

// Issue 36: the checks stay fast only if nobody lets one file grow slow. After a run this
// reporter lists the ten slowest test files and fails the run, naming each file, when one took
// longer than its suite's limit (vitest.config.ts: 60 s a unit or database file; the browser
// journeys' config: 150 s a file, the hostile-input suite 420 s; resilience 240 s). A file's
// time is all of it: its imports, its hooks and its tests. TEST_TIMES_DIR=<dir> also writes every file's time there as JSON (.ci/run
// does, for docs/ci.md).

export type FileTimeGuardOptions = {
  /** The most one test file may take, in seconds. */
  limitSeconds: number;
  /** The suite's name in the report and the JSON file's name. */
  suite: string;
  /** Files allowed longer than limitSeconds, each with its own limit (recorded in docs/ci.md). */
  exceptions?: Record<string, number>;
};

type FileTime = { file: string; seconds: number; tests: number };

export default class FileTimeGuard implements Reporter {
  private readonly options: FileTimeGuardOptions;
  private readonly times: FileTime[] = [];
  private root = process.cwd();

  constructor(options: FileTimeGuardOptions) {
    this.options = options;
  }

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root;
  }

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    const ms =
      d.environmentSetupDuration +
      d.prepareDuration +
      d.collectDuration +
      d.setupDuration +
      d.duration;
    this.times.push({
      file: path.relative(this.root, module.moduleId),
      seconds: Math.round(ms / 100) / 10,
      tests: [...module.children.allTests()].length,
    });
  }

  onTestRunEnd(): void {
    const slowest = [...this.times].sort((a, b) => b.seconds - a.seconds);
    const { limitSeconds, suite } = this.options;
    const lines = slowest
      .slice(0, 10)
      .map((t) => `  ${t.seconds.toFixed(1).padStart(6)} s  ${t.file} (${t.tests} tests)`);
    process.stdout.write(
      `\nThe ten slowest ${suite} files (limit ${limitSeconds} s a file):\n${lines.join('\n')}\n`,
    );
    const limitOf = (file: string) => this.options.exceptions?.[file] ?? limitSeconds;
    const over = slowest.filter((t) => t.seconds > limitOf(t.file));
    for (const t of over) {
      process.stderr.write(
        `\nFILE TIME LIMIT: ${t.file} took ${t.seconds} s, over the ${limitOf(t.file)} s it may take (tests/file-time-guard.ts, docs/ci.md): make it faster or split it.\n`,
      );
    }
    if (over.length > 0) process.exitCode = 1;
    const dir = process.env.TEST_TIMES_DIR;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${suite}.json`), `${JSON.stringify(slowest, null, 1)}\n`);
    }
  }
}
