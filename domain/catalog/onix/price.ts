import { onixDate } from './dates.ts';
import { childOf, childrenOf, type OnixElement, textOf } from './element.ts';

// The store sells in US dollars (issue 15): a product's price is the consumer price for the
// United States, found in the supply block whose market covers the US, in USD, valid today.
// Several prices → the right one by these rules, never the first written.

export type PriceDecision =
  | { kind: 'price'; cents: number; taxIncluded: boolean }
  | { kind: 'free' }
  | { kind: 'hold'; hold: 'unpriced' | 'no-us-price' | 'not-available' };

// Code list 58, consumer prices, in the order the store prefers them: US retail prices are
// quoted before sales tax, so an RRP excluding tax wins over one including it.
const CONSUMER_PRICE_TYPES = ['01', '02', '03', '04', '41', '42'];
const TAX_INCLUDED = new Set(['02', '04', '42']);
// Code list 59: unqualified and consumer prices; member, export, library, institution and
// other special prices are not what a shopper pays.
const CONSUMER_QUALIFIERS = new Set(['00', '05']);
// Code list 65: 40-52 say the supplier does not supply it.
const isNotAvailable = (code: string | null) => code !== null && /^(4\d|5[0-2])$/.test(code);

/** Whether a Territory composite covers a country; an absent territory covers the world. */
export function territoryCovers(territory: OnixElement | undefined, country: string): boolean {
  if (!territory) return true;
  const list = (name: string) => (textOf(territory, name) ?? '').split(/\s+/).filter(Boolean);
  const included = list('CountriesIncluded');
  const regions = list('RegionsIncluded');
  if (list('CountriesExcluded').includes(country)) return false;
  if (included.includes(country)) return true;
  return regions.includes('WORLD');
}

/** A decimal amount as integer cents, or null when it is not one (no floats on money). */
export function amountToCents(raw: string | null): number | null {
  const match = raw ? /^\s*(\d{1,9})(?:\.(\d+))?\s*$/.exec(raw) : null;
  if (!match) return null;
  const [, units, fraction = ''] = match as unknown as [string, string, string | undefined];
  const padded = `${fraction}00`;
  let cents = Number(units) * 100 + Number(padded.slice(0, 2));
  // Half-up on the third decimal and beyond.
  if (padded.length > 2 && Number(padded[2]) >= 5) cents += 1;
  return cents;
}

function validOn(price: OnixElement, today: string): boolean {
  for (const date of childrenOf(price, 'PriceDate')) {
    const role = textOf(date, 'PriceDateRole');
    const value = childOf(date, 'Date');
    if (!value) continue;
    const day = onixDate(value.text, value.attributes.dateformat ?? textOf(date, 'DateFormat'));
    if (!day) continue;
    if (role === '14' && day > today) return false;
    if (role === '15' && day < today) return false;
  }
  return true;
}

function fromDate(price: OnixElement): string {
  for (const date of childrenOf(price, 'PriceDate')) {
    const value = childOf(date, 'Date');
    if (textOf(date, 'PriceDateRole') === '14' && value) {
      return onixDate(value.text, value.attributes.dateformat ?? null) ?? '';
    }
  }
  return '';
}

/** The product's US consumer price in USD today, or why it has none. */
export function usPrice(
  supplies: readonly OnixElement[],
  options: { today: string; defaultCurrency: string | null },
): PriceDecision {
  type Candidate = { cents: number; type: string; from: string };
  const candidates: Candidate[] = [];
  let unpriced: string | null = null;
  let suppliedHere = false;
  let availableHere = false;

  for (const supply of supplies) {
    const markets = childrenOf(supply, 'Market');
    const inUs =
      markets.length === 0 || markets.some((m) => territoryCovers(childOf(m, 'Territory'), 'US'));
    if (!inUs) continue;
    for (const detail of childrenOf(supply, 'SupplyDetail')) {
      suppliedHere = true;
      if (isNotAvailable(textOf(detail, 'ProductAvailability'))) continue;
      availableHere = true;
      unpriced ??= textOf(detail, 'UnpricedItemType');
      for (const price of childrenOf(detail, 'Price')) {
        const type = textOf(price, 'PriceType') ?? '01';
        if (!CONSUMER_PRICE_TYPES.includes(type)) continue;
        const qualifier = textOf(price, 'PriceQualifier');
        if (qualifier !== null && !CONSUMER_QUALIFIERS.has(qualifier)) continue;
        const currency = textOf(price, 'CurrencyCode') ?? options.defaultCurrency;
        if (currency?.toUpperCase() !== 'USD') continue;
        if (!territoryCovers(childOf(price, 'Territory'), 'US')) continue;
        if (!validOn(price, options.today)) continue;
        // An unpriced price row names its reason instead of an amount.
        const rowUnpriced = textOf(price, 'UnpricedItemType');
        if (rowUnpriced) {
          unpriced ??= rowUnpriced;
          continue;
        }
        const cents = amountToCents(textOf(price, 'PriceAmount'));
        if (cents === null) continue;
        candidates.push({ cents, type, from: fromDate(price) });
      }
    }
  }

  if (candidates.length > 0) {
    candidates.sort(
      (a, b) =>
        CONSUMER_PRICE_TYPES.indexOf(a.type) - CONSUMER_PRICE_TYPES.indexOf(b.type) ||
        // The price that took effect last is the current one.
        b.from.localeCompare(a.from) ||
        a.cents - b.cents,
    );
    const best = candidates[0]!;
    return best.cents === 0
      ? { kind: 'free' }
      : { kind: 'price', cents: best.cents, taxIncluded: TAX_INCLUDED.has(best.type) };
  }
  // Code list 57: 01 free of charge; the others (to be announced, not sold separately,
  // contact supplier...) leave nothing to pay for.
  if (unpriced === '01') return { kind: 'free' };
  if (unpriced !== null) return { kind: 'hold', hold: 'unpriced' };
  if (suppliedHere && !availableHere) return { kind: 'hold', hold: 'not-available' };
  return { kind: 'hold', hold: 'no-us-price' };
}
