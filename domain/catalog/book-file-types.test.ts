import { describe, expect, it } from 'vitest';
import { BOOK_FILE_ACCEPT, bookFileRefusal, isBookFileName } from './book-file-types.ts';

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

// Issue 15: a real feed's paperback got a PDF named for its ISBN as its reader file.
describe('which book file a product takes', () => {
  it('an e-book takes the file of its own format, a printed book none', () => {
    expect(bookFileRefusal('epub', 'EPUB')).toBeNull();
    expect(bookFileRefusal('pdf', 'PDF')).toBeNull();
    expect(bookFileRefusal('pdf', 'EPUB')).toEqual({
      message: 'import.file.otherFormat',
      values: { format: 'EPUB', file: 'PDF' },
    });
    expect(bookFileRefusal('epub', 'PDF')).toEqual({
      message: 'import.file.otherFormat',
      values: { format: 'PDF', file: 'EPUB' },
    });
    expect(bookFileRefusal('epub', null)).toEqual({ message: 'import.file.printBook' });
    expect(bookFileRefusal('pdf', null)).toEqual({ message: 'import.file.printBook' });
  });
});
