// Which pre-paginated pages share the screen when the reader shows two at a time (issue 16,
// fixed-layout EPUB: "one or two pages (spreads) per screen"). EPUB 3's rules: a page may ask
// for a side (`page-spread-left|right`) or the middle (`rendition:page-spread-center`); a
// book read left to right opens on a right-hand page, a left-hand page faces the right-hand
// page after it, and a page that asks nothing takes the side its place gives it. A reflowable
// part, the middle and a page without its facing page are shown alone.

export type SpreadPage = { fixed: boolean; side: 'left' | 'right' | 'center' | null };

/** The book's screens in reading order: each one page or two (in reading order). */
export function fixedSpreads(pages: readonly SpreadPage[], rightToLeft = false): number[][] {
  // The side that comes first in reading order, and the one that faces it.
  const first = rightToLeft ? 'right' : 'left';
  const second = rightToLeft ? 'left' : 'right';
  const spreads: number[][] = [];
  let expected: 'left' | 'right' = second;
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i]!;
    if (!page.fixed) {
      spreads.push([i]);
      expected = second;
      continue;
    }
    const side = page.side ?? expected;
    const next = pages[i + 1];
    if (side === first && next?.fixed && (next.side ?? second) === second) {
      spreads.push([i, i + 1]);
      i += 1;
      expected = first;
      continue;
    }
    spreads.push([i]);
    expected = side === first ? second : first;
  }
  return spreads;
}

/** The screen that shows part `part`. */
export function spreadOf(spreads: readonly number[][], part: number): number[] {
  return spreads.find((spread) => spread.includes(part)) ?? [part];
}
