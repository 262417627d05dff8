import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cluster,
  type Server,
  sleep,
  startCluster,
  startServer,
  whyNoPostgres,
} from './harness.ts';

// Issue 15: a stored page past its time to live used to be rendered again for the shopper who
// asked, on whatever the database was doing (an import: hundreds of milliseconds). Now that
// shopper, and everyone until the new copy is stored, gets the stored copy at once, and one
// render in the background replaces it. The built server on a real PostgreSQL, with a time to
// live of one second; a render is told apart by the time it carries (the loader's "now").

const skipReason = whyNoPostgres();
if (skipReason) console.warn(`stored pages test skipped: ${skipReason}`);

const renderedAt = (html: string) => /\\"now\\",\\"([\d:.TZ-]+)\\"/.exec(html)?.[1];

describe.skipIf(skipReason !== null)('stored pages past their time to live', () => {
  let cluster: Cluster;
  let server: Server;

  beforeAll(async () => {
    cluster = await startCluster();
    const url = await cluster.createDatabase('shelfmark_stored_pages');
    server = await startServer(url, { PAGE_CACHE_TTL_SECONDS: '1' });
  });

  afterAll(async () => {
    await server?.stop();
    await cluster?.destroy();
  });

  it('answers the stored copy at once and stores a new render behind it', async () => {
    const get = async (path: string) => {
      const response = await fetch(`${server.base}${path}`, { redirect: 'manual' });
      return { response, html: await response.text() };
    };
    const moved = await get('/book/1');
    expect(moved.response.status).toBe(301);
    const path = moved.response.headers.get('location')!;

    const first = await get(path);
    expect(first.response.status).toBe(200);
    const stored = renderedAt(first.html);
    expect(stored).toBeDefined();
    expect(renderedAt((await get(path)).html)).toBe(stored);

    await sleep(1_200);
    // Past its time to live: the shopper gets the stored copy, not a render made for them...
    const late = await get(path);
    expect(late.response.status).toBe(200);
    expect(late.response.headers.get('etag')).toBe(first.response.headers.get('etag'));
    expect(renderedAt(late.html)).toBe(stored);
    // ...and soon after, without anyone waiting for it, the new copy is the stored one.
    let renewed: string | undefined = stored;
    for (let i = 0; i < 50 && renewed === stored; i += 1) {
      await sleep(100);
      renewed = renderedAt((await get(path)).html);
    }
    expect(renewed).not.toBe(stored);
    expect(Date.parse(renewed!)).toBeGreaterThan(Date.parse(stored!));
    expect(server.uncaughtExceptions()).toBe(0);
  });
});
