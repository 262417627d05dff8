import type { MessageWording } from '#domain/shared/wording.ts';

// The book files and covers that come with a feed (issue 15): EPUB and PDF books, JPEG, PNG
// and WebP covers. One list for the Admin page's file picker and for a folder the command line
// or the demo seed imports (feed-file-import.ts); what each file then must be is checked by
// book-file-check.ts.
export const BOOK_FILE_TYPES = [
  { extensions: ['epub'], mediaType: 'application/epub+zip' },
  { extensions: ['pdf'], mediaType: 'application/pdf' },
  { extensions: ['jpg', 'jpeg'], mediaType: 'image/jpeg' },
  { extensions: ['png'], mediaType: 'image/png' },
  { extensions: ['webp'], mediaType: 'image/webp' },
] as const;

const EXTENSIONS: readonly string[] = BOOK_FILE_TYPES.flatMap((type) => type.extensions);

/** The `accept` of a file input that takes them. */
export const BOOK_FILE_ACCEPT = [
  ...EXTENSIONS.map((extension) => `.${extension}`),
  ...BOOK_FILE_TYPES.map((type) => type.mediaType),
].join(',');

/** True for a file name with one of their extensions. */
export function isBookFileName(fileName: string): boolean {
  const extension = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return extension !== undefined && EXTENSIONS.includes(extension);
}

/**
 * Why a book file may not be attached to this product, or null when it may (issue 15): an
 * e-book takes the file of its own format, the one the feed's ProductFormDetail says (E101 EPUB,
 * E107 PDF), and a printed book takes none. A PDF named for a paperback's ISBN once became that
 * paperback's reader file, and an EPUB product's PDF replaced its EPUB.
 */
export function bookFileRefusal(
  extension: 'epub' | 'pdf',
  productFileType: string | null,
): MessageWording | null {
  if (productFileType === null) return { message: 'import.file.printBook' };
  if (productFileType.toLowerCase() !== extension) {
    return {
      message: 'import.file.otherFormat',
      values: { format: productFileType, file: extension.toUpperCase() },
    };
  }
  return null;
}
