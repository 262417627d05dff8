// The names the publisher's styling goes by in the reader's HTML (issue 16): its classes,
// prefixed so that none is ever one of ours, and the element its rules are scoped to. Apart
// from book-css.ts, which needs a CSS parser, for the renderer and the browser's code.

/** The element around a part's content that the book's rules are scoped to. */
export const BOOK_SCOPE = 'reader-book';

/**
 * The block a pre-paginated page's body becomes (issue 16): the rules of a fixed-layout book
 * are scoped to it, and web/styles/app.css sizes, clips and isolates it.
 */
export const FIXED_PAGE_SCOPE = 'reader-page-body';

/** A class of the book as the reader's HTML carries it: prefixed, never one of ours. */
export function bookClass(name: string): string | null {
  return /^-?[A-Za-z_][\w-]{0,63}$/.test(name) ? `b-${name}` : null;
}

/**
 * A heading of the book as the reader's HTML carries it: one level down, since the page's h1 is
 * the book's title (h1 → h2 … h6 stays h6); null for any other element name.
 */
export function bookHeading(name: string): string | null {
  const level = /^h([1-6])$/i.exec(name);
  return level ? `h${Math.min(6, Number(level[1]) + 1)}` : null;
}
