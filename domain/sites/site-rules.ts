import type { Site, SiteOrg } from './types.ts';

/** spec 1 §5: ecommerce is shown when there is no white label or allowEcommerce is true. */
export function isEcommerceShown(site: Pick<Site, 'whiteLabelId' | 'allowEcommerce'>): boolean {
  return site.whiteLabelId === null || site.allowEcommerce;
}

export function isWhiteLabel(site: Pick<Site, 'whiteLabelId'>): boolean {
  return site.whiteLabelId !== null;
}

/**
 * spec 1 §2 / spec 2 §2 Navbar: the cart link shows only for the retailer organisation, and
 * not when buying happens on the partner reseller site. The organisation is the site's, or
 * on the main site the shopper's own.
 */
export function showNavbarCart(
  org: Pick<SiteOrg, 'isRetailer' | 'buysOnPartnerSite'> | null,
): boolean {
  return !!org?.isRetailer && !org.buysOnPartnerSite;
}

/** spec 2 §2 Browse: on a white-label site browse goes to the site root; elsewhere it shows. */
export function isBrowseShown(site: Pick<Site, 'whiteLabelId'>): boolean {
  return !isWhiteLabel(site);
}
