import { data } from 'react-router';
import { productCoverSvg } from '#domain/catalog/service.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/cover.ts';

// GET /covers/{id}.svg: generated covers, cacheable by browsers and a CDN.
export const loader = withDomainErrors(async ({ params, context }: Route.LoaderArgs) => {
  const match = /^([1-9]\d{0,9})\.svg$/.exec(params.file);
  const id = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw data(null, { status: 404 });
  const svg = await productCoverSvg(context.rc, id);
  return new Response(svg, {
    headers: {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    },
  });
});
