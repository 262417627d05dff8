// The reader's service worker (issue 16, "Offline reading up to the book's offline percentage:
// a service worker keeps that share of the book and the reader's code, readable with the
// network off"). Built to /reader-sw.js (scripts/build-offline-worker.js), registered by the
// reader only, for the reader's pages only (scope /book/read/ or /cds_book_read/:
// web/reading/offline-reading.ts): no other page of the store is controlled by it.
//
// What it keeps, when a reader page asks (a 'keep' message): the reader's page for that book,
// the parts the server allows this device to keep (GET /api/reading/{id}/offline/{part},
// domain/reading/offline.ts), the pictures and fonts those parts and the page name, the
// reader's highlights, and the page's scripts and styles; for a PDF, its copy for this device
// (the share's pages, the others blank), kept under the URL the reader asks for it offline. Each book is one cache, replaced as
// a whole by the next 'keep', and never answered after the reader's access ends.
//
// How it answers: the network first, always; what it kept only when the network fails. A
// script or style of the build is answered from what it kept (their names change with their
// content). Nothing is kept that the page did not ask for.

type Kept = {
  productId: number;
  /** The reader's page, as the page asks for it (path, and its course membership). */
  document: string;
  /** Every other URL to keep: parts, highlights, pictures and fonts, scripts and styles. */
  urls: string[];
  /** Answers kept under another URL than the one they come from: a PDF's copy for offline. */
  files?: { url: string; key: string }[];
  /** When the reader's access ends (ISO 8601), or null. */
  expiresAt: string | null;
};

type KeepMessage = { type: 'keep' } & Kept;
type ForgetMessage = { type: 'forget'; productId: number };

// The few service-worker types used here (the DOM library has none of them, and the
// webworker library cannot share a program with it).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
  ports: readonly MessagePort[];
}
type WorkerScope = {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
};
const worker = self as unknown as WorkerScope;

const CODE = 'shelfmark-reader-code';
const BOOK_PREFIX = 'shelfmark-book-';
const bookCache = (productId: number) => `${BOOK_PREFIX}${productId}`;
/** Where a book's cache keeps what it is (a key no request of the site can have). */
const META = '/.reader-offline/meta';

const READER_PAGE = /^\/(?:book\/read|cds_book_read)\/(\d+)\/?$/;
const KEPT_CALL = /^\/api\/reading\/(\d+)\/(?:parts\/\d+|annotations|offline\/pdf)$/;
const BOOK_FILE = /^\/file\/read\/\d+\/.+/;
/** A book's files named in a part's HTML or in the page's style: its pictures and fonts. */
const FILE_URLS = /\/file\/read\/\d+\/[^"'\\)\s<>]+/g;
/** The page's own scripts and styles (content-hashed names under /assets/). */
const ASSET_URLS = /\/assets\/[\w.-]+\.(?:js|css)/g;

/** The key a reader's page is kept under: its path and its course membership, if any. */
function documentKey(url: URL): string {
  const member = url.searchParams.get('coursemember_id');
  return `${url.pathname.replace(/\/$/, '')}${member ? `?coursemember_id=${member}` : ''}`;
}

/** Sent with the reader's page it keeps: not an opening (web/reading/keep-header.ts). */
const KEEP_HEADER = 'X-Reader-Keep';

async function fetchKept(
  url: string,
  headers: Record<string, string> = {},
): Promise<Response | null> {
  try {
    const response = await fetch(url, { credentials: 'same-origin', cache: 'no-store', headers });
    return response.ok ? response : null;
  } catch {
    return null;
  }
}

/** Keeps a book as the page asked, replacing what was kept of it; the count of parts kept. */
async function keep(message: Kept): Promise<{ kept: number }> {
  const name = bookCache(message.productId);
  // What a 'keep' cut short left behind is not this one's.
  await caches.delete(`${name}.new`);
  const fresh = await caches.open(`${name}.new`);
  const page = await fetchKept(message.document, { [KEEP_HEADER]: '1' });
  if (!page) throw new Error('the reader page did not come');
  const pageText = await page.clone().text();
  await fresh.put(documentKey(new URL(message.document, worker.location.href)), page);
  const files = new Set(pageText.match(FILE_URLS) ?? []);
  const assets = new Set(pageText.match(ASSET_URLS) ?? []);
  let kept = 0;
  for (const url of message.urls) {
    if (url.startsWith('/assets/')) {
      assets.add(url);
      continue;
    }
    const response = await fetchKept(url);
    if (!response) continue;
    if (url.includes('/parts/')) {
      kept += 1;
      for (const file of (await response.clone().text()).match(FILE_URLS) ?? []) files.add(file);
    }
    await fresh.put(url, response);
  }
  for (const { url, key } of message.files ?? []) {
    const response = await fetchKept(url);
    if (!response) throw new Error('a file to keep did not come');
    await fresh.put(key, response);
  }
  for (const file of files) {
    const response = await fetchKept(file);
    if (response) await fresh.put(file, response);
  }
  const code = await caches.open(CODE);
  for (const asset of assets) {
    if (await code.match(asset)) continue;
    const response = await fetchKept(asset);
    if (response) await code.put(asset, response);
  }
  await fresh.put(
    META,
    new Response(JSON.stringify({ expiresAt: message.expiresAt, assets: [...assets] }), {
      headers: { 'Content-Type': 'application/json' },
    }),
  );
  // The new copy replaces the old one whole: a book is never half kept.
  await caches.delete(name);
  const final = await caches.open(name);
  for (const request of await fresh.keys()) {
    const response = await fresh.match(request);
    if (response) await final.put(request, response);
  }
  await caches.delete(`${name}.new`);
  await pruneCode();
  return { kept };
}

/** Drops the scripts and styles no kept book's page uses any more (an older build's). */
async function pruneCode(): Promise<void> {
  const used = new Set<string>();
  for (const name of await caches.keys()) {
    if (!name.startsWith(BOOK_PREFIX) || name.endsWith('.new')) continue;
    const meta = await (await caches.open(name)).match(META);
    const { assets = [] } = meta ? ((await meta.json()) as { assets?: string[] }) : {};
    for (const asset of assets) used.add(asset);
  }
  const code = await caches.open(CODE);
  for (const request of await code.keys()) {
    if (!used.has(new URL(request.url).pathname)) await code.delete(request);
  }
}

/** A kept answer for a book, unless the reader's access to it has ended since. */
async function keptAnswer(productId: number, key: string): Promise<Response | null> {
  if (!(await caches.has(bookCache(productId)))) return null;
  const cache = await caches.open(bookCache(productId));
  const meta = await cache.match(META);
  // A copy without what it is (a keep cut short) is not answered.
  if (!meta) return null;
  const { expiresAt = null } = (await meta.json()) as { expiresAt?: string | null };
  if (expiresAt !== null && Date.parse(expiresAt) <= Date.now()) {
    await caches.delete(bookCache(productId));
    return null;
  }
  return (await cache.match(key)) ?? null;
}

/** Replaces a kept answer with a newer one, when the book is kept. */
async function refreshKept(productId: number, key: string, response: Response): Promise<void> {
  if (!(await caches.has(bookCache(productId)))) return;
  const cache = await caches.open(bookCache(productId));
  if (await cache.match(key)) await cache.put(key, response);
}

/** The network's answer, else what was kept, else the network's failure as it was. */
function networkFirst(request: Request, fallback: () => Promise<Response | null>) {
  return fetch(request).catch(async (error: unknown) => {
    const kept = await fallback();
    if (kept) return kept;
    throw error;
  });
}

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener('message', (event) => {
  const message = event.data as KeepMessage | ForgetMessage | null;
  const reply = event.ports[0];
  if (message?.type === 'keep') {
    event.waitUntil(
      keep(message).then(
        (result) => reply?.postMessage({ ok: true, ...result }),
        () => reply?.postMessage({ ok: false, kept: 0 }),
      ),
    );
  } else if (message?.type === 'forget') {
    event.waitUntil(
      caches.delete(bookCache(message.productId)).then(() => reply?.postMessage({ ok: true })),
    );
  }
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  const page = READER_PAGE.exec(url.pathname);
  if (page && request.mode === 'navigate') {
    const productId = Number(page[1]);
    event.respondWith(
      networkFirst(request, () => keptAnswer(productId, documentKey(url))).then((response) => {
        // Access ended (refund, revocation, a dropped course): nothing of it stays kept.
        if (response.status === 403) event.waitUntil(caches.delete(bookCache(productId)));
        return response;
      }),
    );
    return;
  }
  const call = KEPT_CALL.exec(url.pathname);
  if (call) {
    const key = `${url.pathname}${url.search}`;
    const productId = Number(call[1]);
    // A PDF's kept copy exists only here: asked for when the book's file did not come.
    if (url.pathname.endsWith('/offline/pdf')) {
      event.respondWith(
        keptAnswer(productId, key).then((kept) => kept ?? new Response(null, { status: 404 })),
      );
      return;
    }
    event.respondWith(
      networkFirst(request, () => keptAnswer(productId, key)).then((response) => {
        if (response.status === 403) event.waitUntil(caches.delete(bookCache(productId)));
        // The highlights change as the reader studies: a kept book keeps the latest list.
        if (response.ok && url.pathname.endsWith('/annotations'))
          event.waitUntil(refreshKept(productId, key, response.clone()));
        return response;
      }),
    );
    return;
  }
  if (BOOK_FILE.test(url.pathname)) {
    const key = `${url.pathname}${url.search}`;
    event.respondWith(networkFirst(request, () => findKept(key)));
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches
        .open(CODE)
        .then((code) => code.match(url.pathname))
        .then((kept) => kept ?? fetch(request)),
    );
  }
});

/** A book's file kept in any book's cache (its URL names the file, not the product). */
async function findKept(key: string): Promise<Response | null> {
  for (const name of await caches.keys()) {
    if (!name.startsWith(BOOK_PREFIX) || name.endsWith('.new')) continue;
    const found = await (await caches.open(name)).match(key);
    if (found) return found;
  }
  return null;
}
