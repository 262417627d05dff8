import { useMemo } from 'react';

/**
 * The `dangerouslySetInnerHTML` value for `html`, the same object for as long as the text is the
 * same. React 19 writes the inner HTML again whenever that prop is a new object, equal text or
 * not: for the page's inline stylesheet that was a new stylesheet, a restyle and a relayout of
 * the whole page at every render of the document (each navigation, and once after hydration,
 * 40 to 60 ms of main thread on a desktop for a search page of 80 results; issue 13).
 */
export function useInnerHtml(html: string): { __html: string } {
  return useMemo(() => ({ __html: html }), [html]);
}
