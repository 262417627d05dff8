// spec 1 §4 Availability / spec 2 §8: deactivated, withdrawn and deleted block purchase, and
// each reason maps to a message that starts with 'Sorry, '.
export type UnavailabilityReason =
  | 'removed'
  | 'default'
  | 'disabled'
  | 'territory'
  | 'market'
  | 'offering'
  | 'file';

export const UNAVAILABILITY_MESSAGE: Record<UnavailabilityReason, string> = {
  removed: 'availability.removed',
  default: 'availability.default',
  disabled: 'availability.disabled',
  territory: 'availability.territory',
  market: 'availability.market',
  offering: 'availability.offering',
  file: 'availability.file',
};

export type AvailabilityFacts = {
  status: string;
  isDisabled: boolean;
  blockedCountries: readonly string[];
  blockedHosts: readonly string[];
  activeOfferings: number;
  /**
   * Of those, the ones that can be delivered (issue 19: an e-book's digital offerings need a
   * file for the reader); all of them when not given.
   */
  deliverableOfferings?: number;
  /**
   * An imported product held from sale (issue 15): no US price in USD, a price to be
   * announced, or the supplier does not supply it. Its page says no offerings are available.
   */
  saleHold?: string | null;
  /** A future publication or embargo date: the product is shown, not sold, until then. */
  saleStartsAt?: Date | null;
  now?: Date;
  /** The shopper's country (ISO 3166-1 alpha-2). */
  country: string;
  /** The site's host name. */
  host: string;
};

/** Why this product cannot be bought here and now, or null when it can. */
export function unavailabilityReason(facts: AvailabilityFacts): UnavailabilityReason | null {
  if (facts.status === 'withdrawn' || facts.status === 'deleted') return 'removed';
  if (facts.status !== 'active') return 'default';
  if (facts.isDisabled) return 'disabled';
  if (facts.saleStartsAt && facts.saleStartsAt.getTime() > (facts.now ?? new Date()).getTime()) {
    return 'disabled';
  }
  if (facts.blockedCountries.includes(facts.country.toUpperCase())) return 'territory';
  if (facts.blockedHosts.includes(facts.host.toLowerCase())) return 'market';
  if (facts.saleHold || facts.activeOfferings === 0) return 'offering';
  if (facts.deliverableOfferings === 0) return 'file';
  return null;
}
