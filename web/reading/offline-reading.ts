import { loadedPdfWorker } from '#web/utils/pdf-engine.client.ts';
import { readerCallUrl } from '#web/utils/reader-api.ts';

// Offline reading, on the reader's page (issue 16): registers the reader's service worker
// (web/reading/offline-worker.ts, served as /reader-sw.js), asks the server which parts this
// device may keep (GET /api/reading/{id}/offline/{part}: the rule is domain/reading/offline.ts)
// and has the worker keep them, with the page itself, its scripts and styles, the pictures and
// fonts the parts use, and the reader's highlights. A PDF is kept as one file: its copy for this
// device, with the share's pages and every other page blank (domain/reading/pdf-share.ts).

export type OfflineKeep = {
  productId: number;
  format: 'epub' | 'pdf';
  courseMemberId: number | null;
  /** The part the reader is in: the share is counted from there. */
  part: number;
  /** When the reader's access ends (the worker answers nothing kept after it). */
  expiresAt: string | null;
};

/** What was kept: the parts, or null when this browser cannot keep anything. */
export type OfflineResult = { parts: number[] } | null;

/** Where the reader finds a PDF's kept copy (the worker answers it only offline). */
export function offlinePdfUrl(productId: number, courseMemberId: number | null): string {
  return readerCallUrl(productId, courseMemberId, '/offline/pdf');
}

/** Whether this browser can keep a book (a service worker and Cache Storage, on https or localhost). */
export function canKeepOffline(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof caches !== 'undefined' &&
    window.isSecureContext
  );
}

/**
 * The worker controls the reader's pages only (its scope), so no other page of the store waits
 * for it to start; the calls a reader page makes (/api/reading, /file/read, /assets) still
 * reach it, since a page's requests go to the worker that controls the page.
 */
function readerScope(): string {
  return location.pathname.startsWith('/cds_book_read/') ? '/cds_book_read/' : '/book/read/';
}

async function activeWorker(): Promise<ServiceWorker | null> {
  const registration = await navigator.serviceWorker.register('/reader-sw.js', {
    scope: readerScope(),
  });
  const ready = await navigator.serviceWorker.ready;
  return ready.active ?? registration.active ?? null;
}

function ask(worker: ServiceWorker, message: unknown): Promise<{ ok: boolean; kept?: number }> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = window.setTimeout(() => resolve({ ok: false }), 120_000);
    channel.port1.onmessage = (event) => {
      window.clearTimeout(timer);
      resolve(event.data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

/** The page's own scripts and styles: what it loaded from /assets/, and what it names. */
function pageAssets(): string[] {
  const assets = new Set<string>();
  const add = (href: string | null) => {
    if (!href) return;
    const url = new URL(href, location.href);
    if (url.origin === location.origin && url.pathname.startsWith('/assets/'))
      assets.add(url.pathname);
  };
  for (const entry of performance.getEntriesByType('resource')) add(entry.name);
  for (const element of document.querySelectorAll('script[src], link[href]'))
    add(element.getAttribute('src') ?? element.getAttribute('href'));
  return [...assets];
}

/**
 * Keeps the book's offline share on this device, replacing what was kept of it before; the
 * parts kept (none when the book allows none), or null when this browser cannot keep them.
 */
export async function keepBookOffline(book: OfflineKeep): Promise<OfflineResult> {
  if (!canKeepOffline()) return null;
  const worker = await activeWorker();
  if (!worker) return null;
  const response = await fetch(
    readerCallUrl(book.productId, book.courseMemberId, `/offline/${book.part}`),
    { credentials: 'same-origin', headers: { Accept: 'application/vnd.api+json' } },
  );
  if (!response.ok) throw new Error(`offline share: ${response.status}`);
  const parts: number[] = (await response.json()).data.attributes.parts;
  if (parts.length === 0) {
    await ask(worker, { type: 'forget', productId: book.productId });
    return { parts };
  }
  const member = book.courseMemberId === null ? '' : `?coursemember_id=${book.courseMemberId}`;
  const pdf = book.format === 'pdf';
  const pdfWorker = loadedPdfWorker();
  const answer = await ask(worker, {
    type: 'keep',
    productId: book.productId,
    document: `${location.pathname}${member}`,
    urls: [
      ...(pdf
        ? []
        : parts.map((part) =>
            readerCallUrl(book.productId, book.courseMemberId, `/parts/${part}`),
          )),
      readerCallUrl(book.productId, book.courseMemberId, '/annotations'),
      ...pageAssets(),
      ...(pdf && pdfWorker ? [new URL(pdfWorker, location.href).pathname] : []),
    ],
    files: pdf
      ? [
          {
            url: readerCallUrl(book.productId, book.courseMemberId, `/offline/${book.part}/pdf`),
            key: offlinePdfUrl(book.productId, book.courseMemberId),
          },
        ]
      : [],
    expiresAt: book.expiresAt,
  });
  if (!answer.ok) throw new Error('the service worker could not keep the book');
  return { parts };
}
