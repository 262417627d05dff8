import { data } from 'react-router';
import { productCoverSvg } from '#domain/catalog/service.ts';
import { parseId } from '#domain/shared/id.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/cover.ts';

// GET /covers/{id}.svg: generated covers, cacheable by browsers and a CDN.
export const loader = withDomainErrors(async ({ params, context }: Route.LoaderArgs) => {
  const id = parseId(/^(.*)\.svg$/.exec(params.file)?.[1]);
  if (id === null) throw data(null, { status: 404 });
  const svg = await productCoverSvg(context.rc, id);
  return new Response(svg, {
    headers: {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    },
  });
});
