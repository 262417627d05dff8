import { data, redirect } from 'react-router';
import { z } from 'zod';
import { campusForAddress, startCampusSignIn } from '#domain/accounts/campus-sign-in-service.ts';
import { DomainError, Invalid } from '#domain/shared/errors.ts';
import { parseId } from '#domain/shared/id.ts';
import { originOf } from '#web/launch/auto-post.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/campus-start.ts';
import { campusNext } from './campus-sign-in.server.ts';

// GET /accounts/campus/start/?campus=<id> or ?email=<address> [&next=…&login_hint=…] (issue 20):
// sends the browser to the campus's identity provider (OIDC authorization request or SAML
// AuthnRequest), the request kept for its answer. A page route, so that a refusal is the
// shared error page in the user's language, not a bare response.

const StartQuery = z.object({
  campus: z.string().max(20).optional(),
  email: z.string().max(254).optional(),
  login_hint: z.string().max(254).optional(),
  next: z.string().max(2000).optional(),
});

export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const url = new URL(request.url);
  const parsed = StartQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw new Invalid('error.invalid');
  const query = parsed.data;
  let campusId = query.campus !== undefined ? parseId(query.campus) : null;
  if (query.campus !== undefined && campusId === null) throw new Invalid('error.invalid');
  const loginHint = query.login_hint ?? query.email ?? null;
  if (campusId === null) {
    const campus = query.email ? await campusForAddress(context.rc, query.email) : null;
    if (!campus) throw new Invalid('campus.error.noCampus');
    campusId = campus.id;
  }
  let location: string;
  try {
    location = await startCampusSignIn(context.rc, {
      campusId,
      next: campusNext(query.next),
      origin: originOf(request),
      loginHint,
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // The campus's provider cannot be reached (discovery failed): say so, not a 500.
    context.log.warn({ err: error, campusId }, 'campus sign-in: provider unreachable');
    throw data({ messageKey: 'campus.error.unavailable', params: {} }, { status: 503 });
  }
  throw redirect(location, { headers: { 'Cache-Control': 'no-store' } });
});

/** Never shown: the loader always redirects or throws to the error boundary. */
export default function CampusStartPage() {
  return null;
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'campus.title');
