import { describe, expect, it } from 'vitest';
import { BOOK_FILE_ACCEPT, isBookFileName } from './book-file-types.ts';

// Issue 15: the Admin page's picker and a folder on disk take the same book files and covers.
describe('book files and covers that come with a feed', () => {
  it('takes EPUB, PDF and JPEG, PNG and WebP covers, whatever the case of the extension', () => {
    for (const name of ['9780306406157.epub', 'a.PDF', 'c.jpg', 'c.JPEG', 'c.png', 'c.webp']) {
      expect(isBookFileName(name), name).toBe(true);
    }
    for (const name of ['feed.xml', 'a.epub.exe', 'epub', 'notes.txt', 'c.gif', '']) {
      expect(isBookFileName(name), name).toBe(false);
    }
  });

  it('gives the file picker the same list, by extension and media type', () => {
    expect(BOOK_FILE_ACCEPT).toBe(
      '.epub,.pdf,.jpg,.jpeg,.png,.webp,application/epub+zip,application/pdf,image/jpeg,image/png,image/webp',
    );
  });
});
