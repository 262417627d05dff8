import { parseId } from '#domain/shared/id.ts';

// spec 2 §9: page size 100; shown range '(page-1)*100+1 - end'; up to 6 pages are shown fully,
// otherwise first, ellipsis, neighbours, ellipsis, last.
export const PAGE_SIZE = 100;
export const MAX_FULL_PAGES = 6;

export type PageItem = { kind: 'page'; page: number } | { kind: 'ellipsis'; key: string };

export function pageItems(current: number, pages: number): PageItem[] {
  if (pages <= MAX_FULL_PAGES) {
    return Array.from({ length: pages }, (_, i) => ({ kind: 'page', page: i + 1 }));
  }
  const neighbours = [current - 1, current, current + 1].filter((p) => p > 1 && p < pages);
  const items: PageItem[] = [{ kind: 'page', page: 1 }];
  if ((neighbours[0] ?? pages) > 2) items.push({ kind: 'ellipsis', key: 'start' });
  for (const page of neighbours) items.push({ kind: 'page', page });
  if ((neighbours[neighbours.length - 1] ?? 1) < pages - 1)
    items.push({ kind: 'ellipsis', key: 'end' });
  items.push({ kind: 'page', page: pages });
  return items;
}

/**
 * The pages of `count` items and the asked page clamped to them: at least one page, so an empty
 * list is page 1 of 1; a page past the end is the last (issue 13: this was written twice).
 */
export function pageWindow(
  asked: number,
  count: number,
  pageSize = PAGE_SIZE,
): { page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  return { page: Math.min(Math.max(1, Math.floor(asked) || 1), pages), pages };
}

/** The shown range, e.g. '101 - 200' of page 2; the end is capped by the count. */
export function shownRange(
  page: number,
  count: number,
  pageSize = PAGE_SIZE,
): { from: number; to: number } {
  if (count === 0) return { from: 0, to: 0 };
  return { from: (page - 1) * pageSize + 1, to: Math.min(page * pageSize, count) };
}

/**
 * The `page` of a query: decimal digits, like an id (so '0x10' or '1e3' is not page 16 or
 * 1000); anything else, or none, is the first page. Callers clamp it to the last page.
 */
export function pageNumber(raw: string | null): number {
  return parseId(raw) ?? 1;
}
