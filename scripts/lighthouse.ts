// Fast on a phone (issue 13): Lighthouse's mobile performance score of the home, search and
// product pages is at least 95 and first contentful paint at most 1.8 s, each the median of
// five runs (Lighthouse's variability guide: one run's score swings by ten points on a shared
// machine; the median of five is what it recommends), under Lighthouse's mobile throttling:
// 150 ms round trips, 1.6 Mbps, a CPU four times slower. CI runs this on the built server, as
// `npm start` runs it on a new machine (embedded database, demo catalog).
//
// The throttling is applied (Lighthouse's "devtools" method): the page's own main thread runs
// four times slower and the network is slowed for real (decision 029). Lighthouse's default,
// simulated throttling, multiplies every task the trace shows by the slowdown, and on this
// two-core virtual machine most of a page's early tasks are waits on the browser process (font
// lookups, the navigation's commit, V8's context) that a phone does not have; its score then
// swung from 82 to 97 with the same build. LIGHTHOUSE_THROTTLING=simulate measures that way
// (with the slowdown set from the machine's benchmark index), for comparison.
//
//   npm run build && npm run lighthouse
//   DEMO_BASE_URL=http://127.0.0.1:3000 npm run lighthouse   # a server already running
//
// A page stops being measured once its verdict is decided (verdictOf): three passing runs of
// five decide the median as surely as five, so a passing page takes three runs, not five.
//
// Chromium is Debian's (/usr/bin/chromium, or CHROME_PATH). Results go to stdout and, as
// JSON, to LIGHTHOUSE_REPORT when set.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { demoServer } from './demo-server.ts';
import { MAX_FCP_MS, MIN_SCORE, RUNS, verdictOf } from './lighthouse-verdict.ts';

/** Uncounted runs whose median benchmark index sets the CPU slowdown. */
const PROBES = 3;

const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const SIMULATE = process.env.LIGHTHOUSE_THROTTLING === 'simulate';
/** Lighthouse's mobile CPU slowdown. */
const MOBILE_CPU_SLOWDOWN = 4;

/** The first book in the search results, at its canonical address (no redirect to measure). */
async function productPath(baseUrl: string): Promise<string> {
  const html = await (await fetch(`${baseUrl}/search?terms=chemistry`)).text();
  const found = /href="(\/book\/\d+\/[a-z0-9-]+)"/.exec(html);
  if (!found) throw new Error('no book in the search results to measure');
  return found[1] ?? '';
}

/** The share of all cores busy over the next `ms` milliseconds (0 idle, 1 all busy). */
async function busyShare(ms: number): Promise<number> {
  const total = () =>
    cpus().reduce(
      (sum, cpu) => {
        const { idle, user, nice, sys, irq } = cpu.times;
        return { idle: sum.idle + idle, all: sum.all + idle + user + nice + sys + irq };
      },
      { idle: 0, all: 0 },
    );
  const before = total();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = total();
  const all = after.all - before.all;
  return all > 0 ? 1 - (after.idle - before.idle) / all : 0;
}

/**
 * Lighthouse's blocking time is the page's main-thread work measured on this machine, then
 * slowed four times: another program busy on the CPU at the same time (a build, a test suite)
 * is counted as the page's own. Each run waits, up to a minute and a half, until less than
 * half of the machine’s CPU time was busy over the last second, and the report says how
 * busy it was (percent). The CPU's own counters, not the load average: the one-minute load
 * average still says "busy" for half a minute after a build has ended (issue 36).
 */
async function quietMachine(): Promise<number> {
  const deadline = Date.now() + 90_000;
  let busy = await busyShare(1_000);
  while (busy >= 0.5 && Date.now() < deadline) busy = await busyShare(1_000);
  return Math.round(busy * 100);
}

/**
 * For simulated throttling, the CPU slowdown that makes this machine stand for Lighthouse's
 * target phone. The default 4
 * assumes a fast desktop (a benchmark index near 1,500); on a slower one (a shared virtual
 * machine whose host is busy) the same 4 makes a slower phone than meant, and blocking time
 * grows for no fault of the page. Lighthouse's docs (throttling.md, "calibrating the CPU
 * slowdown") give the factor for a machine's benchmark index: 150 is 1x, 800 is 2x, 1,300 3x,
 * each 233 above that one more. A fast machine keeps 4: nothing gets easier there.
 */
export function cpuSlowdownFor(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= 0) return 4;
  const factor =
    benchmarkIndex >= 1300
      ? 3 + (benchmarkIndex - 1300) / 233
      : benchmarkIndex >= 800
        ? 2 + (benchmarkIndex - 800) / 500
        : 1 + Math.max(0, benchmarkIndex - 150) / 650;
  return Math.min(4, Math.round(factor * 10) / 10);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

interface PageResult {
  page: string;
  url: string;
  scores: number[];
  fcpMs: number[];
  lcpMs: number[];
  tbtMs: number[];
  busyPercent: number[];
  score: number;
  fcp: number;
}

/**
 * The page as a server that has been answering a while serves it: on two cores, a first run's
 * trace also held the server compiling the route (search's first run blocked 709 ms, its
 * later ones 162–358). Twenty requests first, not measured.
 */
async function warmUp(url: string): Promise<void> {
  for (let request = 0; request < 20; request += 1) await (await fetch(url)).text();
}

function emptyResult(page: string, url: string): PageResult {
  return {
    page,
    url,
    scores: [],
    fcpMs: [],
    lcpMs: [],
    tbtMs: [],
    busyPercent: [],
    score: 0,
    fcp: 0,
  };
}

const SETTINGS = {
  onlyCategories: ['performance'],
  // The full-page screenshot is for the report's picture, no metric reads it: 1.5 s a run.
  disableFullPageScreenshot: true,
  // Audits of no weight in the score, 2 s a run: the back/forward cache check navigates away
  // and back again, the two screenshot audits only draw the report's film strip.
  skipAudits: ['bf-cache', 'screenshot-thumbnails', 'final-screenshot'],
  formFactor: 'mobile' as const,
  logLevel: 'error' as const,
  output: 'json' as const,
};

/** Runs Lighthouse once in a new browser (nothing cached, as a first visit). */
async function lighthouseRun(url: string, cpuSlowdownMultiplier: number | null) {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const throttling =
      cpuSlowdownMultiplier === null
        ? {}
        : {
            throttlingMethod: SIMULATE ? ('simulate' as const) : ('devtools' as const),
            throttling: {
              rttMs: 150,
              throughputKbps: 1638.4,
              requestLatencyMs: 562.5,
              downloadThroughputKbps: 1474.56,
              uploadThroughputKbps: 675,
              cpuSlowdownMultiplier,
            },
          };
    return (await lighthouse(url, { port: chrome.port, ...SETTINGS, ...throttling }))?.lhr;
  } finally {
    chrome.kill();
  }
}

/**
 * Simulated throttling only: first, uncounted runs measure the machine: the median of their benchmark indexes sets the
 * slowdown (one reading swung from 1,355 to 1,719 between two runs in a row, 3.2x against 4x).
 */
async function calibrate(url: string): Promise<number> {
  const indexes: number[] = [];
  for (let probe = 0; probe < PROBES; probe += 1) {
    indexes.push((await lighthouseRun(url, null))?.environment.benchmarkIndex ?? Number.NaN);
  }
  const index = median(indexes.filter(Number.isFinite));
  const slowdown = cpuSlowdownFor(index);
  console.log(
    `benchmark index ${Math.round(index)} (median of ${indexes.map(Math.round).join(', ')}): CPU slowdown ${slowdown}x`,
  );
  return slowdown;
}

/**
 * The pages take turns, one run each (home, search, product, home, ...): a slow spell of a
 * shared machine (a stop's CI once scored the product page 89-92 in five runs in a row, the
 * same page 95-99 an hour later) then weighs on every page's runs alike, not on the five runs
 * of whichever page it fell on.
 */
async function measureAll(pages: [string, string][]): Promise<PageResult[]> {
  const results = pages.map(([page, url]) => emptyResult(page, url));
  for (const result of results) await warmUp(result.url);
  // Applied throttling slows this machine's CPU itself: four times, whatever its speed.
  const slowdown = SIMULATE ? await calibrate(results[0]?.url ?? '') : MOBILE_CPU_SLOWDOWN;
  console.log(
    `throttling: ${SIMULATE ? 'simulated' : 'applied (devtools)'}, CPU slowdown ${slowdown}x`,
  );
  // Lighthouse now and then fails to record a trace (NO_NAVSTART); such a run is made again.
  // A clean-clone CI run on 27 November met it three times in a row on the home page.
  let retries = 6;
  for (let run = 0; run < RUNS; run += 1) {
    for (const result of results) {
      if (verdictOf(result.scores, result.fcpMs) !== null) continue;
      for (;;) {
        const busy = await quietMachine();
        const lhr = await lighthouseRun(result.url, slowdown);
        if (!lhr) throw new Error(`Lighthouse gave no result for ${result.url}`);
        if (lhr.runtimeError) {
          if (retries === 0) throw new Error(`${result.url}: ${lhr.runtimeError.message}`);
          retries -= 1;
          console.warn(`${result.url}: ${lhr.runtimeError.code}, measuring again`);
          continue;
        }
        const metric = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? Number.NaN);
        result.scores.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
        result.fcpMs.push(metric('first-contentful-paint'));
        result.lcpMs.push(metric('largest-contentful-paint'));
        result.tbtMs.push(metric('total-blocking-time'));
        result.busyPercent.push(busy);
        break;
      }
    }
  }
  for (const result of results) {
    result.score = median(result.scores);
    result.fcp = median(result.fcpMs);
  }
  return results;
}

const server = await demoServer();
const baseUrl = server.base;
let results: PageResult[] = [];
try {
  const pages: [string, string][] = [
    ['home', '/'],
    ['search', '/search?terms=chemistry'],
    ['product', await productPath(baseUrl)],
  ];
  results = await measureAll(
    pages.map(([page, target]): [string, string] => [page, new URL(target, baseUrl).href]),
  );
  for (const result of results) {
    console.log(
      `${result.page.padEnd(8)} score ${result.score} (runs ${result.scores.join(', ')})  ` +
        `FCP ${result.fcp} ms (${result.fcpMs.join(', ')})  LCP ${result.lcpMs.join(', ')} ms  ` +
        `TBT ${result.tbtMs.join(', ')} ms  busy ${result.busyPercent.join(', ')} %  ${new URL(result.url).pathname}${new URL(result.url).search}`,
    );
  }
} finally {
  await server.stop();
}
if (process.env.LIGHTHOUSE_REPORT) {
  writeFileSync(process.env.LIGHTHOUSE_REPORT, JSON.stringify(results, null, 2));
}
const failures = results.flatMap((r) => [
  ...(!(r.score >= MIN_SCORE) ? [`${r.page}: median score ${r.score} < ${MIN_SCORE}`] : []),
  ...(!(r.fcp <= MAX_FCP_MS) ? [`${r.page}: median FCP ${r.fcp} ms > ${MAX_FCP_MS} ms`] : []),
]);
if (failures.length > 0) {
  console.error(`Lighthouse mobile budget not met:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log(`Lighthouse mobile: every page scores ≥ ${MIN_SCORE} with FCP ≤ ${MAX_FCP_MS} ms.`);
