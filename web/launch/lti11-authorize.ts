import {
  authorizeLti11Launch,
  LaunchRefused,
  productOfPricingId,
} from '#domain/access/launch-service.ts';
import { DomainError } from '#domain/shared/errors.ts';
import { translate } from '#i18n/translate.ts';
import type { Route } from './+types/lti11-authorize.ts';
import { originOf } from './auto-post.server.ts';
import { parseLaunchQuery } from './launch-params.ts';

// GET /lti1p0/link/authorize/?user_id=…&courseware_pricing_id=…&section_id=…&org_id=… (spec 2
// §7 "Launch 1.0 authorize"): JSON target_url and cache_key, or error (issue 14). The cache key
// is single-use and short-lived; /lti1p0/link/launch/ spends it.
export async function loader({ request, context }: Route.LoaderArgs) {
  const locale = context.rc.locale;
  const fail = (status: number, key: string) =>
    Response.json(
      { target_url: null, cache_key: null, error: translate(locale, key), error_key: key },
      { status, headers: { 'Cache-Control': 'no-store' } },
    );
  const user = context.rc.user;
  if (!user) return fail(401, 'error.forbidden');
  const query = parseLaunchQuery(new URL(request.url));
  if (!query) return fail(400, 'launch.error.invalidRequest');
  const sectionId = query.section_id ?? null;
  try {
    if (query.user_id !== undefined && query.user_id !== user.id) {
      throw new LaunchRefused('launch.error.otherUser');
    }
    const productId = query.courseware_pricing_id
      ? await productOfPricingId(context.rc.db, query.courseware_pricing_id, sectionId)
      : (query.courseware_id ?? null);
    if (productId === null) return fail(404, 'launch.error.noTool');
    const { targetUrl, cacheKey } = await authorizeLti11Launch(context.rc, {
      productId,
      sectionId,
      origin: originOf(request),
    });
    return Response.json(
      { target_url: targetUrl, cache_key: cacheKey, error: null },
      { headers: { 'Cache-Control': 'no-store' } },
    );
  } catch (error) {
    if (error instanceof DomainError) return fail(error.status, error.messageKey);
    throw error;
  }
}
