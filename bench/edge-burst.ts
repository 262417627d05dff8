// How fast the store stays while it is being abused (issue 18): p50/p99 of ordinary requests
// under a burst, first alone, then while hostile clients run beside them (slowloris
// connections, 50 MB chunked bodies to a form and to the API, TRACE and bad-text floods).
//   BENCH_DATABASE_URL=postgres://... npx tsx bench/edge-burst.ts [--duration 10] [--connections 50]
// Starts `node server.js` (NODE_ENV=production, the built server) on 127.0.0.1 with the demo
// data, and prints a Markdown table for docs/benchmarks.md. Talks only to 127.0.0.1.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import autocannon from 'autocannon';

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
};
const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) {
  console.error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill.');
  process.exit(2);
}
const duration = Number(option('duration') ?? 10);
const connections = Number(option('connections') ?? 50);
const port = Number(option('port') ?? 3291);
const host = '127.0.0.1';
const base = `http://${host}:${port}`;

const server: ChildProcess = spawn(process.execPath, ['server.js'], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    HOST: host,
    PUBLIC_ORIGIN: base,
    PORT: String(port),
    DEMO_DATA: 'on',
    LOG_LEVEL: 'warn',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
    LTI_KEY: randomBytes(32).toString('hex'),
    PAYMENTS: 'test',
    // One process, as its figures in docs/benchmarks.md: the RSS read below is its pid's.
    WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? '1',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
process.on('exit', () => server.kill('SIGTERM'));

async function waitForServer() {
  for (let i = 0; i < 900; i += 1) {
    try {
      if ((await fetch(`${base}/api/account/login`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not start');
}

const rssMb = () =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]) / 1024,
  );

type Figure = { rps: number; p50: number; p99: number; errors: number };

async function burst(path: string): Promise<Figure> {
  const result = await autocannon({ url: `${base}${path}`, connections, duration });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result['5xx'],
  };
}

/** Hostile clients, running until stopped; counts what they sent. */
function hostile() {
  let running = true;
  const sent = { slowloris: 0, bigBodies: 0, trace: 0, badText: 0 };
  const sockets: net.Socket[] = [];
  // 50 slowloris connections, renewed as the server closes them.
  const slowloris = () => {
    if (!running) return;
    const socket = net.connect(port, host);
    sockets.push(socket);
    sent.slowloris += 1;
    socket.on('error', () => {});
    socket.write(`GET / HTTP/1.1\r\nHost: ${host}\r\n`);
    const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 1000);
    socket.on('close', () => {
      clearInterval(drip);
      slowloris();
    });
  };
  for (let i = 0; i < 50; i += 1) slowloris();
  // Two streams of 50 MB chunked bodies, one to a form and one to the API.
  const bigBody = (path: string, type: string) => {
    if (!running) return;
    sent.bigBodies += 1;
    const req = http.request({
      host,
      port,
      path,
      method: 'POST',
      headers: { 'Content-Type': type },
    });
    req.on('response', (res) => {
      res.resume();
      req.destroy();
      bigBody(path, type);
    });
    req.on('error', () => setTimeout(() => bigBody(path, type), 10));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let bytes = 0;
    const pump = () => {
      while (bytes < 50 * 2 ** 20 && !req.destroyed) {
        bytes += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  };
  bigBody('/accounts/login/', 'application/x-www-form-urlencoded');
  bigBody('/api/redeem', 'application/vnd.api+json');
  // TRACE and NUL floods, one request at a time each.
  const flood = async (kind: 'trace' | 'badText') => {
    while (running) {
      await new Promise<void>((resolve) => {
        const req = http.request(
          kind === 'trace'
            ? { host, port, path: '/', method: 'TRACE' }
            : { host, port, path: '/search?terms=%00%1B', method: 'GET' },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', () => resolve());
        req.end();
      });
      sent[kind] += 1;
    }
  };
  void flood('trace');
  void flood('badText');
  return {
    sent,
    stop() {
      running = false;
      for (const socket of sockets) socket.destroy();
    },
  };
}

await waitForServer();
const paths = ['/', '/search?terms=biology', '/api/account/login'];
for (const path of paths) await burst(path); // warm-up: JIT, pools, page cache
const rows: string[] = [];
const rssBefore = rssMb();
let rssPeak = rssBefore;
for (const path of paths) {
  const calm = await burst(path);
  const attack = hostile();
  const peak = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMb());
  }, 250);
  const loud = await burst(path);
  clearInterval(peak);
  attack.stop();
  const s = attack.sent;
  rows.push(
    `| \`${path}\` | ${calm.rps} | ${calm.p50} | ${calm.p99} | ${loud.rps} | ${loud.p50} | ${loud.p99} | ${calm.errors + loud.errors} | ${s.slowloris} slowloris, ${s.bigBodies} bodies of 50 MB started (each refused at its limit), ${s.trace} TRACE, ${s.badText} bad text |`,
  );
  await new Promise((resolve) => setTimeout(resolve, 2000));
}
console.log(`\n${connections} connections for ${duration} s each; latencies in ms.\n`);
console.log(
  '| request | alone req/s | p50 | p99 | under attack req/s | p50 | p99 | errors/5xx | hostile traffic meanwhile |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(`\nServer RSS: ${rssBefore} MB before, ${rssPeak} MB at most during the attacks.`);
server.kill('SIGTERM');
process.exit(0);
