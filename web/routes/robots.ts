import type { Route } from './+types/robots.ts';

export function loader({ request }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  const body = [
    'User-agent: *',
    'Disallow: /api/',
    'Disallow: /accounts/',
    'Disallow: /account',
    'Disallow: /shelf',
    'Disallow: /cart/',
    'Disallow: /checkout/',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    },
  });
}
