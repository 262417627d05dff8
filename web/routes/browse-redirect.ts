import { redirect } from 'react-router';
import { isBrowseShown } from '#domain/sites/site-rules.ts';
import type { Route } from './+types/browse-redirect.ts';

// /browse goes to /browse/all (or to the chosen ?category=, the no-JS category select);
// /app/ecom/browse[/slug] is the old address; white-label sites have no browse (spec 1 §2).
export function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isBrowseShown(context.rc.site)) throw redirect('/');
  const chosen = new URL(request.url).searchParams.get('category') ?? params.slug ?? 'all';
  const slug = /^[a-z0-9-]{1,120}$/.test(chosen) ? chosen : 'all';
  throw redirect(`/browse/${slug}`, 301);
}
