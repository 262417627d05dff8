/**
 * The header the reader's service worker sends when it fetches the reader's page to keep it
 * for offline reading (web/reading/offline-worker.ts): the page is then not a reading event.
 * The worker imports nothing, so it writes the same name; offline-worker.test.ts checks both.
 */
export const KEEP_HEADER = 'X-Reader-Keep';
