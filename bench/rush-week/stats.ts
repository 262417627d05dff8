// Figures for bench/rush-week.ts: percentiles, the steps table, /metrics read as numbers.
import { readFileSync } from 'node:fs';
import {
  describeOutcome,
  type Outcome,
  type Recorder,
  tally,
} from '../../tests/resilience/harness.ts';

/** Nearest-rank percentile of sorted values (0 for none), as bench/buyer-burst.ts. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function sortedTimes(outcomes: readonly Outcome[]): number[] {
  return outcomes.map((o) => o.endedAt - o.startedAt).sort((a, b) => a - b);
}

export type Spread = { p50: number; p95: number; p99: number; max: number; n: number };

export function spreadOf(sorted: readonly number[]): Spread {
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    n: sorted.length,
  };
}

/** A request that went wrong: no answer, or a 4xx/5xx (every step here expects 2xx or 3xx). */
export function isError(outcome: Outcome): boolean {
  return outcome.status === 0 || outcome.status >= 400;
}

/** When an outcome started, on the machine's clock (performance.now), whichever recorder took it. */
export function startedAtAbsolute(recorder: Recorder, outcome: Outcome): number {
  return recorder.clockStart + outcome.startedAt;
}

export const ms = (n: number) => String(Math.round(n));

/** One Markdown row per step label, in the order the steps were first taken. */
export function stepRows(population: string, outcomes: readonly Outcome[]): string[] {
  const rows: string[] = [];
  for (const label of [...new Set(outcomes.map((o) => o.label))]) {
    const mine = outcomes.filter((o) => o.label === label);
    const s = spreadOf(sortedTimes(mine));
    const answers = Object.entries(tally([...mine], describeOutcome))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${count} × ${status}`)
      .join(', ');
    rows.push(
      `| ${population} | ${label} | ${mine.length} | ${answers} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} |`,
    );
  }
  return rows;
}

export const STEP_HEADER = [
  '| Who | Step | Requests | Answers | p50 ms | p95 ms | p99 ms | max ms |',
  '|---|---|---:|---|---:|---:|---:|---:|',
];

/** Prometheus text: each sample's name, labels and value (comments and blanks skipped). */
export type Sample = { name: string; labels: Record<string, string>; value: number };

export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[4]) });
  }
  return samples;
}

/** The sum of a metric's samples whose labels include `where`. */
export function sumOf(
  samples: readonly Sample[],
  name: string,
  where: Record<string, string> = {},
) {
  return samples
    .filter(
      (s) => s.name === name && Object.entries(where).every(([key, v]) => s.labels[key] === v),
    )
    .reduce((sum, s) => sum + s.value, 0);
}

/** GET /metrics (answers loopback callers without proxy headers); null when it is not ours to read. */
export async function scrapeMetrics(url: string): Promise<Sample[] | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    return response.ok ? parseMetrics(text) : null;
  } catch {
    return null;
  }
}

/**
 * The machine's CPU time so far, from /proc/stat's first line (every core, in clock ticks):
 * what was busy, and everything. Two readings give how busy the machine was between them.
 */
export function machineCpu(): { busy: number; total: number } {
  const first = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const ticks = first.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  const total = ticks.reduce((sum, n) => sum + n, 0);
  return { busy: total - idle, total };
}
