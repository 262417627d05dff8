import { allowanceLimit } from './drm.ts';

// Offline reading (spec 1 §3 product drm `offlinePercent`; issue 16 "offline reading up to the
// book's offline percentage: a service worker keeps that share of the book"). The share is
// counted as copying is: in characters of the book's text as the reader shows it, or in pages
// for a fixed-layout book (its pages are pictures, their words few). It is kept in whole parts
// (a chapter, a page), one run of them from where the reader is: forward first, then back, as
// long as each next part fits in what is left. A book without the percentage keeps nothing.

/**
 * The entry of a PDF's document information that lists the pages (from 0, comma-separated) its
 * offline copy holds (pdf-share.ts); the reader reads it with pdf.js's getMetadata().
 */
export const OFFLINE_PAGES_KEY = 'ShelfmarkOfflinePages';

/** The pages an offline copy of a PDF names as kept; null when it is no offline copy. */
export function offlinePagesOf(info: unknown): Set<number> | null {
  const custom = (info as { Custom?: Record<string, unknown> } | null)?.Custom;
  const listed = custom?.[OFFLINE_PAGES_KEY];
  if (typeof listed !== 'string') return null;
  return new Set(
    listed
      .split(',')
      .filter((page) => /^\d+$/.test(page))
      .map(Number),
  );
}

/**
 * The parts of a book a device may keep for reading offline, in order: `sizes` are the parts'
 * sizes (characters, or 1 per page of a fixed-layout book), `from` the part the reader is in.
 */
export function offlineParts(
  sizes: readonly number[],
  percent: number | null,
  from: number,
): number[] {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let left = allowanceLimit(percent, total);
  if (left <= 0 || sizes.length === 0) return [];
  const start = Math.min(Math.max(0, Math.trunc(from)), sizes.length - 1);
  const kept: number[] = [];
  for (let part = start; part < sizes.length && sizes[part]! <= left; part += 1) {
    kept.push(part);
    left -= sizes[part]!;
  }
  // Only a run that starts where the reader is: nothing before it if that part did not fit.
  if (kept.length === 0) return [];
  for (let part = start - 1; part >= 0 && sizes[part]! <= left; part -= 1) {
    kept.unshift(part);
    left -= sizes[part]!;
  }
  return kept;
}
