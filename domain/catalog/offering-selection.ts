import { offeringPriceCents } from '#domain/commerce/cart-button.ts';
import { parseId } from '#domain/shared/id.ts';
// spec 1 §4 Offering selection default, and when the offerings select shows.

export type OfferingOption = {
  id: number;
  type: string;
  priceCents: number;
  comboPriceCents?: number | null;
};

const shopperPrice = (o: OfferingOption) =>
  offeringPriceCents({ ...o, comboPriceCents: o.comboPriceCents ?? null });

/** Offerings are sorted by price ascending (ties by id, so the order is stable). */
export function sortOfferings<T extends OfferingOption>(offerings: readonly T[]): T[] {
  return [...offerings].sort((a, b) => shopperPrice(a) - shopperPrice(b) || a.id - b.id);
}

/**
 * The default selection: the offering already in the cart; the one named in the query if
 * logged in; the cheapest digital; physical; combo.
 */
export function defaultOffering(input: {
  offerings: readonly OfferingOption[];
  cartOfferingId?: number | null;
  queryOfferingId?: number | null;
  /** offeringType from the query (spec 1 §2: carried through login to preselect). */
  queryOfferingType?: string | null;
  loggedIn: boolean;
}): number | null {
  const sorted = sortOfferings(input.offerings);
  const byId = (id: number | null | undefined) =>
    id == null ? undefined : sorted.find((o) => o.id === id);
  const byType = (...types: string[]) => sorted.find((o) => types.includes(o.type));
  return (
    byId(input.cartOfferingId)?.id ??
    (input.loggedIn
      ? (byId(input.queryOfferingId)?.id ??
        (input.queryOfferingId == null && input.queryOfferingType
          ? byType(input.queryOfferingType)?.id
          : undefined))
      : undefined) ??
    byType('digital')?.id ??
    byType('physical', 'physical_product')?.id ??
    byType('combo')?.id ??
    sorted[0]?.id ??
    null
  );
}

/**
 * What a product page's address asks to preselect (spec 1 §2: offeringId or offeringType,
 * carried through login), read the same way by the page's loader and by its form in the
 * browser, which asks defaultOffering again once it knows what the cart holds.
 */
export function offeringQuery(params: URLSearchParams): {
  queryOfferingId: number | null;
  queryOfferingType: string | null;
} {
  return {
    queryOfferingId: parseId(params.get('offeringId')),
    queryOfferingType: params.get('offeringType'),
  };
}

export type OfferingPanel = {
  visible: boolean;
  /** 'DURATION', or 'PURCHASE OPTIONS' for physical items. */
  labelKey: 'offering.duration' | 'offering.purchaseOptions';
  /** Selection is disabled once the item is in the cart. */
  disabled: boolean;
};

export function offeringPanel(input: {
  productType: string;
  offeringCount: number;
  owned: boolean;
  inCart: boolean;
  partnerOrg: boolean;
  follettLabel: boolean;
}): OfferingPanel {
  return {
    visible: !input.owned && !input.partnerOrg && !input.follettLabel && input.offeringCount > 0,
    labelKey:
      input.productType === 'physical_product' ? 'offering.purchaseOptions' : 'offering.duration',
    disabled: input.inCart,
  };
}
