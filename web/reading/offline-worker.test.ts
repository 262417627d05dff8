import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEEP_HEADER } from './keep-header.ts';

// The reader's service worker imports nothing (it is built on its own, scripts/
// build-offline-worker.js), so the header it sends when it keeps the reader's page is written
// there too: the page's loader (web/routes/book-read.tsx) must know it by the same name, or
// every keep would count as an opening of the book.
describe('the offline worker and the reader page agree', () => {
  it('on the header that says a page is being kept, not read', () => {
    const source = readFileSync(new URL('./offline-worker.ts', import.meta.url), 'utf8');
    expect(source).toContain(`const KEEP_HEADER = '${KEEP_HEADER}';`);
    expect(source).toContain('fetchKept(message.document, { [KEEP_HEADER]: ');
  });
});
