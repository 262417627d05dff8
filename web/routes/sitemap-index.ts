import { sitemapPageCount } from '#domain/catalog/sitemap.ts';
import type { Route } from './+types/sitemap-index.ts';

// GET /sitemap.xml: the index of the paged product sitemaps, cacheable.
export async function loader({ request, context }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  const pages = await sitemapPageCount(context.catalogRc);
  const entries = Array.from(
    { length: pages },
    (_, i) => `<sitemap><loc>${origin}/sitemap/products/${i + 1}.xml</loc></sitemap>`,
  ).join('');
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap/pages.xml</loc></sitemap>${entries}</sitemapindex>`,
    {
      headers: {
        'Content-Type': 'application/xml; charset=utf-8',
        'Cache-Control': 'public, max-age=3600',
      },
    },
  );
}
