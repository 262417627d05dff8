import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Buyer,
  type Cluster,
  createBuyers,
  DEMO_PASSWORD,
  Recorder,
  type Server,
  sellableOfferings,
  sleep,
  startCluster,
  startServer,
  whyNoPostgres,
} from './harness.ts';
import { findNginx, type NginxProxy, startNginx } from './nginx.ts';

// Issue 40: "Ship a tested reverse-proxy configuration for a real balancer from Debian (nginx
// or HAProxy) in front of several processes, with micro-caching of anonymous pages honouring
// our Cache-Control/ETag". Debian's nginx runs deploy/nginx/shelfmark.conf word for word, in
// front of two built servers on one real PostgreSQL; only the three files an operator edits
// (deploy/nginx/shelfmark/: the processes, where to listen, where the cache lives) are written
// here, the processes' line keeping the shipped parameters. Everything on 127.0.0.1.

const nginxBin = findNginx();
const skipReason =
  whyNoPostgres() ?? (nginxBin ? null : 'no nginx (apt-get install nginx; .ci/run installs it)');
if (skipReason) console.warn(`reverse proxy test skipped: ${skipReason}`);

type Got = { status: number; cache: string | null; body: string; headers: Headers };

describe.skipIf(skipReason !== null)('nginx in front of two processes (deploy/nginx)', () => {
  let cluster: Cluster;
  let db: pg.Client;
  let first: Server;
  let second: Server;
  let proxy: NginxProxy;
  let productPath: string;

  const get = async (target: string, headers: Record<string, string> = {}): Promise<Got> => {
    const response = await fetch(`${proxy.base}${target}`, {
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(7_000),
    });
    return {
      status: response.status,
      cache: response.headers.get('x-cache-status'),
      body: await response.text(),
      headers: response.headers,
    };
  };

  beforeAll(async () => {
    cluster = await startCluster();
    const url = await cluster.createDatabase('shelfmark_reverse_proxy');
    // Processes behind one balancer share their keys: a form's CSRF token, made by one, is
    // checked by another. The visitor's address is what nginx forwards (TRUSTED_PROXIES).
    const key = () => randomBytes(32).toString('hex');
    const settings = {
      SESSION_SECRET: key(),
      ACCESS_CODE_KEY: key(),
      LTI_KEY: key(),
      TRUSTED_PROXIES: '127.0.0.1',
      LOG_LEVEL: 'error',
    };
    first = await startServer(url, settings);
    second = await startServer(url, settings);
    proxy = await startNginx([first.base, second.base]);
    db = new pg.Client({ connectionString: url });
    await db.connect();
    const moved = await get('/book/1');
    expect(moved.status).toBe(301);
    productPath = moved.headers.get('location')!;
  });

  afterAll(async () => {
    await db?.end();
    await proxy?.stop();
    await first?.stop();
    await second?.stop();
    await cluster?.destroy();
  });

  it('stores an anonymous product page for a few seconds and answers If-None-Match with 304', async () => {
    const missed = await get(productPath);
    expect(missed.status).toBe(200);
    expect(missed.cache).toBe('MISS');
    expect(missed.headers.get('cache-control')).toBe('public, no-cache');
    const hit = await get(productPath);
    expect(hit.cache).toBe('HIT');
    expect(hit.body).toBe(missed.body);
    const etag = hit.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const revalidated = await get(productPath, { 'If-None-Match': etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBe('');
    // Each encoding is a variant of its own, with its own ETag: the app compresses, nginx
    // passes its bytes through.
    const brotli = await get(productPath, { 'Accept-Encoding': 'gzip, deflate, br' });
    const identity = await get(productPath, { 'Accept-Encoding': 'identity' });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(brotli.headers.get('etag')).not.toBe(identity.headers.get('etag'));
    expect(brotli.body).toContain('</html>');
    // Another language is another page, never the English one from the cache.
    const french = await get(productPath, { Cookie: 'LANG=fr-CA' });
    expect(french.cache).toBe('MISS');
    expect(french.body).toContain('lang="fr-CA"');
    expect(hit.body).not.toContain('lang="fr-CA"');
  });

  it('never stores a response that sets a cookie, nor an API answer', async () => {
    for (let i = 0; i < 2; i += 1) {
      const form = await get('/accounts/login/');
      expect(form.status).toBe(200);
      expect(form.headers.getSetCookie().length).toBeGreaterThan(0);
      expect(form.cache).not.toBe('HIT');
      const api = await get('/api/account/login', { Accept: 'application/vnd.api+json' });
      expect(api.status).toBe(200);
      expect(api.cache).toBeNull();
    }
  });

  it('keeps logged-in pages out of the cache, both ways', async () => {
    const [account] = await createBuyers(db, 'proxy-person-', 1);
    await db.query("update users set first_name = 'Quillonette' where id = $1", [account!.userId]);
    // Logging in through nginx, as a browser without JavaScript: the POST passes through.
    const jar = new Map<string, string>();
    const keep = (headers: Headers) => {
      for (const line of headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
    };
    const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const form = await get('/accounts/login/');
    keep(form.headers);
    const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(form.body)![1]!;
    const posted = await fetch(`${proxy.base}/accounts/login/`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        Cookie: cookie(),
        Origin: proxy.base,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        email: account!.email,
        password: DEMO_PASSWORD,
        csrfmiddlewaretoken: token,
      }).toString(),
    });
    expect(posted.status).toBe(302);
    keep(posted.headers);
    expect(jar.get('sid')).toBeTruthy();

    // The anonymous copy is in the cache now...
    await get(productPath);
    expect((await get(productPath)).cache).toBe('HIT');
    // ...and the logged-in visitor never gets it, nor fills it.
    for (let i = 0; i < 3; i += 1) {
      const mine = await get(productPath, { Cookie: cookie() });
      expect(mine.status).toBe(200);
      expect(mine.cache).toBe('BYPASS');
      expect(mine.body).toContain('Quillonette');
      expect(mine.headers.get('cache-control')).toBe('private, no-store');
    }
    const anonymous = await get(productPath);
    expect(anonymous.cache).toBe('HIT');
    expect(anonymous.body).not.toContain('Quillonette');
    // Even once the anonymous copy has expired and been rendered again.
    await sleep(5_200);
    await get(productPath, { Cookie: cookie() });
    const renewed = await get(productPath);
    expect(renewed.body).not.toContain('Quillonette');
  });

  it('lets a buyer check out through the proxy', async () => {
    const [account] = await createBuyers(db, 'proxy-buyer-', 1);
    const { digital } = await sellableOfferings(db, 1, 0);
    const recorder = new Recorder();
    const buyer = new Buyer(recorder, () => proxy.base, account!.email, account!.userId);
    expect(await buyer.logIn()).toBe(true);
    const result = await buyer.checkout(
      { offeringIds: digital, needsAddress: false },
      () => recorder.now() + 20_000,
      () => 100,
    );
    expect(result.failure).toBeNull();
    const { rows } = await db.query<{ paid: boolean }>(
      'select paid_at is not null as paid from orders where id = $1',
      [result.orderId],
    );
    expect(rows[0]?.paid).toBe(true);
    expect(recorder.outcomes.filter((o) => o.status >= 500 || o.status === 0)).toEqual([]);
  });

  it('loses no anonymous GET when one process is killed', async () => {
    const statuses: number[] = [];
    let n = 0;
    let running = true;
    const visitor = async () => {
      while (running) {
        n += 1;
        // A query of its own: every request reaches a process, none is answered by the cache.
        const answer = await get(`${productPath}?visit=${n}`).catch(() => null);
        statuses.push(answer?.status ?? 0);
      }
    };
    const visitors = Array.from({ length: 4 }, visitor);
    await sleep(500);
    await first.kill();
    await sleep(1_500);
    running = false;
    await Promise.all(visitors);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // nginx saw the dead process and went to the other one.
    expect(proxy.errorLog()).toMatch(/connect\(\) failed|upstream prematurely closed|reset/);
  });
});
