import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, sleep } from './harness.ts';

// Debian's nginx running deploy/nginx/shelfmark.conf word for word (issue 40): only the three
// files an operator edits (deploy/nginx/shelfmark/: the processes, where to listen, where the
// cache lives) are written, the processes' line keeping the shipped parameters. Used by the
// reverse-proxy test and by the rush-week load test's --proxy. Everything on 127.0.0.1.

const DEPLOY = path.resolve('deploy/nginx');

export function findNginx(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not there
    }
  }
  try {
    return execFileSync('sh', ['-c', 'command -v nginx']).toString().trim() || null;
  } catch {
    return null;
  }
}

export type NginxProxy = { base: string; stop(): Promise<void>; errorLog(): string };

/** nginx as a user may run it: its own prefix, pid, temporary files and logs, in the foreground. */
export async function startNginx(upstreams: string[]): Promise<NginxProxy> {
  const nginxBin = findNginx();
  if (!nginxBin) throw new Error('no nginx (apt-get install nginx; .ci/run installs it)');
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-nginx-'));
  mkdirSync(path.join(dir, 'shelfmark'));
  copyFileSync(path.join(DEPLOY, 'shelfmark.conf'), path.join(dir, 'shelfmark.conf'));
  const shipped = (name: string) => readFileSync(path.join(DEPLOY, 'shelfmark', name), 'utf8');
  const parameters = /^server\s+\S+\s+([^;]*);/m.exec(shipped('upstream.conf'))?.[1];
  if (!parameters || !/max_fails=\d+ fail_timeout=\d+s/.test(parameters))
    throw new Error(
      'deploy/nginx/shelfmark/upstream.conf: no server line with max_fails and fail_timeout',
    );
  const servers = upstreams.map((base) => `server ${new URL(base).host} ${parameters};`);
  writeFileSync(path.join(dir, 'shelfmark', 'upstream.conf'), `${servers.join('\n')}\n`);
  writeFileSync(path.join(dir, 'shelfmark', 'listen.conf'), `listen 127.0.0.1:${port};\n`);
  const cachePath = shipped('cache.conf').replace('/var/cache/nginx/shelfmark', `${dir}/cache`);
  if (!cachePath.includes(`${dir}/cache`))
    throw new Error('deploy/nginx/shelfmark/cache.conf: no /var/cache/nginx/shelfmark to move');
  writeFileSync(path.join(dir, 'shelfmark', 'cache.conf'), cachePath);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `  ${kind}_temp_path ${dir}/${kind};`)
    .join('\n');
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      // As root, nginx's workers would run as nobody, who cannot write to this directory.
      process.getuid?.() === 0 ? 'user root root;' : '',
      'daemon off;',
      'worker_processes 1;',
      // Each visitor's connection takes two (theirs and the one to a process): 512, Debian's
      // order of magnitude, ran out under the rush-week load test's 460 visitors.
      'worker_rlimit_nofile 16384;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 8192; }',
      'http {',
      `  access_log ${dir}/access.log;`,
      temp,
      '  include shelfmark.conf;',
      '}',
      '',
    ].join('\n'),
  );
  const args = ['-p', `${dir}/`, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`];
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  execFileSync(nginxBin, ['-t', '-q', ...args]);
  const child: ChildProcess = spawn(nginxBin, args, { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${errorLog()}`);
    try {
      const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer:\n${errorLog()}`);
    await sleep(50);
  }
  return {
    base,
    errorLog,
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
