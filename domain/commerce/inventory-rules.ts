import { Invalid } from '#domain/shared/errors.ts';

// My Inventory's rules (spec 1 §2 user menu: "My Inventory (posting enabled and manager or
// impersonating)"): what a count of units may be, which offerings are low, and how a typed
// number of units is read. Pure: the page's form knows its limits from here.

/** At or below this many units on hand, an offering is low on stock. */
export const LOW_STOCK = 5;
/** The most units one delivery may add: more is a typo (an ISBN typed in the wrong field). */
export const MAX_RECEIVED = 10_000;
/** The most units a count may find. */
export const MAX_COUNTED = 1_000_000;
export const INVENTORY_PAGE_SIZE = 50;
/** The longest title or number the list's search box takes. */
export const INVENTORY_QUERY_MAX = 200;

/** What the search box holds, spaces tidied and cut to its length. */
export function inventoryQueryOf(raw: string | null | undefined): string {
  return (raw ?? '').trim().replace(/\s+/g, ' ').slice(0, INVENTORY_QUERY_MAX);
}

export const INVENTORY_FILTERS = ['all', 'low'] as const;
export type InventoryFilter = (typeof INVENTORY_FILTERS)[number];

export function inventoryFilterOf(raw: string | null | undefined): InventoryFilter {
  return (INVENTORY_FILTERS as readonly string[]).includes(raw ?? '')
    ? (raw as InventoryFilter)
    : 'all';
}

/** Thousands grouped as the page shows them: 1,234 or 1 234 (a space, a no-break space). */
const GROUPED = /^\d{1,3}(?:([,\u0020\u00a0\u202f])\d{3})(?:\1\d{3})*$/;

/**
 * A whole number of units as typed (spaces around it allowed, thousands grouped as the page
 * shows them, nothing else) within [min, max]; otherwise `messageKey`, which says the range.
 * "1,5" is no grouping (a French decimal): refused, never read as 15.
 */
export function unitsTyped(
  raw: unknown,
  range: { min: number; max: number },
  messageKey: string,
): number {
  const typed = typeof raw === 'string' ? raw.trim() : '';
  if (typed === '') throw new Invalid('inventory.error.empty');
  const text = GROUPED.test(typed) ? typed.replace(/[^\d]/g, '') : typed;
  if (!/^\d{1,9}$/.test(text)) throw new Invalid(messageKey, range);
  const units = Number(text);
  if (units < range.min || units > range.max) throw new Invalid(messageKey, range);
  return units;
}

/** Units received in one delivery: 1 to MAX_RECEIVED. */
export function receivedUnits(raw: unknown): number {
  return unitsTyped(raw, { min: 1, max: MAX_RECEIVED }, 'inventory.error.units');
}

/** Units found by a count: 0 to MAX_COUNTED. */
export function countedUnits(raw: unknown): number {
  return unitsTyped(raw, { min: 0, max: MAX_COUNTED }, 'inventory.error.units');
}

/** No units on hand: the product page still shows the offering, and checkout refuses it. */
export function isOutOfStock(stock: number | null): boolean {
  return stock !== null && stock < 1;
}

/** At or below LOW_STOCK units on hand (none included). */
export function isLowStock(stock: number | null): boolean {
  return stock !== null && stock <= LOW_STOCK;
}
