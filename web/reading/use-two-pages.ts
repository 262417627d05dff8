import { useEffect, useState } from 'react';
import type { ReaderView } from '#domain/reading/types.ts';

/**
 * Whether two fixed-layout pages fit side by side now (issue 16): as the book's
 * `rendition:spread` asks, on a screen wide enough for two pages ('landscape' and 'auto': a
 * landscape one).
 */
export function useTwoPages(spread: ReaderView['spread']): boolean {
  const query =
    spread === 'none'
      ? null
      : spread === 'both'
        ? '(min-width: 56rem)'
        : '(min-width: 56rem) and (orientation: landscape)';
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    if (!query) return;
    const media = window.matchMedia(query);
    setMatches(media.matches);
    const changed = () => setMatches(media.matches);
    media.addEventListener('change', changed);
    return () => media.removeEventListener('change', changed);
  }, [query]);
  return query !== null && matches;
}
