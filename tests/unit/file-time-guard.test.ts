import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import FileTimeGuard from '../file-time-guard.ts';

// Issue 36: the guard fails the run, naming the file, when a test file takes longer than its
// limit, and an exception raises the limit of the one file it names.

function finished(file: string, seconds: number): TestModule {
  const ms = seconds * 1000;
  return {
    moduleId: `/repo/${file}`,
    diagnostic: () => ({
      environmentSetupDuration: 0,
      prepareDuration: 0,
      collectDuration: ms / 2,
      setupDuration: 0,
      duration: ms / 2,
    }),
    children: { allTests: () => [][Symbol.iterator]() },
  } as unknown as TestModule;
}

function run(times: [string, number][], exceptions?: Record<string, number>) {
  const errors: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
    errors.push(String(text));
    return true;
  });
  const guard = new FileTimeGuard({ limitSeconds: 60, suite: 'test', exceptions });
  guard.onInit({ config: { root: '/repo' } });
  for (const [file, seconds] of times) guard.onTestModuleEnd(finished(file, seconds));
  guard.onTestRunEnd();
  vi.restoreAllMocks();
  return { errors: errors.join(''), exitCode: process.exitCode };
}

const before = process.exitCode;
afterEach(() => {
  process.exitCode = before;
});

describe('the file time guard', () => {
  it('passes files within the limit', () => {
    const { errors, exitCode } = run([['a.test.ts', 59.9]]);
    expect(errors).toBe('');
    expect(exitCode).toBe(before);
  });

  it('fails the run naming the file over the limit, imports and hooks counted', () => {
    const { errors, exitCode } = run([
      ['a.test.ts', 10],
      ['slow.test.ts', 61],
    ]);
    expect(errors).toContain('slow.test.ts took 61 s, over the 60 s it may take');
    expect(errors).not.toContain('a.test.ts');
    expect(exitCode).toBe(1);
  });

  it('an exception raises the limit of its own file only', () => {
    const ok = run([['big.test.ts', 300]], { 'big.test.ts': 420 });
    expect(ok.errors).toBe('');
    process.exitCode = before;
    const over = run([['other.test.ts', 300]], { 'big.test.ts': 420 });
    expect(over.errors).toContain('other.test.ts took 300 s');
    expect(over.exitCode).toBe(1);
  });
});
