import { data } from 'react-router';
import { sitemapPage } from '#domain/catalog/sitemap.ts';
import { isBrowseShown } from '#domain/sites/site-rules.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/sitemap-page.ts';

const BROWSE = '/browse/all';
const STATIC_PAGES = [
  '/',
  BROWSE,
  '/search',
  '/site-map',
  '/support',
  '/help',
  '/privacy',
  '/terms',
  '/refund-policy',
  '/accessibility',
];

// GET /sitemap/pages.xml and /sitemap/products/{n}.xml.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const origin = new URL(request.url).origin;
  let paths: string[];
  if (params.kind === 'pages.xml' && !params.file) {
    // Only pages this site answers itself: no URL that redirects (issue 13).
    paths = STATIC_PAGES.filter((path) => path !== BROWSE || isBrowseShown(context.rc.site));
  } else {
    const match =
      params.kind === 'products' ? /^([1-9]\d{0,5})\.xml$/.exec(params.file ?? '') : null;
    if (!match) throw data(null, { status: 404 });
    paths = await sitemapPage(context.catalogRc, Number(match[1]));
  }
  const urls = paths.map((path) => `<url><loc>${origin}${path}</loc></url>`).join('');
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
    {
      headers: {
        'Content-Type': 'application/xml; charset=utf-8',
        'Cache-Control': 'public, max-age=3600',
      },
    },
  );
});
