import type { SiteLinks } from './types.ts';

// The main site's title and links: what a site without a white label shows, and what an error
// page shows when it knows nothing of the site (web/shell/shell-data.ts).
export const DEFAULT_SITE_TITLE = 'Shelfmark';

export const DEFAULT_LINKS: SiteLinks = {
  support: '/support',
  help: '/help',
  privacy: '/privacy',
  terms: '/terms',
  refund: '/refund-policy',
  accessibility: '/accessibility',
  library: '/library/',
};
