// Shoppers loading one page at a steady rate, in a process of their own (bench/catalog-import.ts
// starts it): autocannon sends the requests; this prints one line of JSON with the latencies.
//   node --import tsx bench/shoppers.ts <url> <seconds> [pages a second] [connections]
//
// Two p99s are printed, and both are kept in docs/benchmarks.md:
// - `autocannon`: autocannon 8's own figure. With a rate it corrects for coordinated omission
//   with `recordValueWithExpectedInterval(responseTime, Math.ceil(1 / rate))`, where `rate` is
//   a connection's requests per second: an expected interval of 1 ms instead of 1000 / rate.
//   One response of 300 ms then adds 299 samples (299, 298 … 1 ms), and in a run of 5,000
//   requests a single slow response sets the p99 (decision 031).
// - `corrected`: the same responses, corrected as HdrHistogram does it, at each connection's
//   own interval (1000 / rate ms): a 300 ms response on a connection sending every 50 ms also
//   counts the five requests it held back (250, 200, 150, 100 and 50 ms).
import autocannon from 'autocannon';

const [url, secondsArg, rateArg = '200', connectionsArg = '10'] = process.argv.slice(2);
if (!url || !secondsArg) {
  console.error('usage: bench/shoppers.ts <url> <seconds> [pages a second] [connections]');
  process.exit(2);
}
const rate = Number(rateArg);
const connections = Number(connectionsArg);
const expectedMs = 1000 / (rate / connections);

/** The responses' latencies, with HdrHistogram's correction for coordinated omission. */
function correctedLatencies(latencies: readonly number[], intervalMs: number): number[] {
  const all: number[] = [];
  for (const latency of latencies) {
    all.push(latency);
    for (let missing = latency - intervalMs; missing >= intervalMs; missing -= intervalMs) {
      all.push(missing);
    }
  }
  return all.sort((a, b) => a - b);
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const latencies: number[] = [];
const instance = autocannon(
  { url, connections, overallRate: rate, duration: Number(secondsArg) },
  (error, result) => {
    if (error) {
      console.error(error);
      process.exit(1);
    }
    const corrected = correctedLatencies(latencies, expectedMs);
    const raw = [...latencies].sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        requests: { average: result.requests.average, total: result.requests.total },
        non2xx: result.non2xx,
        autocannon: { p50: result.latency.p50, p99: result.latency.p99 },
        corrected: {
          p50: Math.round(percentile(corrected, 50)),
          p99: Math.round(percentile(corrected, 99)),
          max: Math.round(percentile(corrected, 100)),
        },
        uncorrected: {
          p99: Math.round(percentile(raw, 99)),
          slowest: raw.slice(-5).map(Math.round),
        },
      }),
    );
  },
);
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
});
