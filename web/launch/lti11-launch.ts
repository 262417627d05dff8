import { data } from 'react-router';
import { lti11LaunchForm } from '#domain/access/launch-service.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/lti11-launch.ts';
import { autoPostResponse, launchStep, originOf } from './auto-post.server.ts';

// GET /lti1p0/link/launch/?target_url=…&cache_key=… (spec 1 §4: "Link 1.0 authorizes, then
// submits a GET form with target_url and cache_key to the launch URL"): spends the cache key
// and answers the LTI 1.1 basic launch, signed with OAuth 1.0a, as a form that posts itself.
export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(request, context);
  const url = new URL(request.url);
  const targetUrl = url.searchParams.get('target_url');
  const cacheKey = url.searchParams.get('cache_key');
  if (!targetUrl || !cacheKey || targetUrl.length > 2048 || cacheKey.length > 200) {
    throw data(null, { status: 400 });
  }
  const origin = originOf(request);
  return launchStep(context, false, async () =>
    autoPostResponse(
      context,
      await lti11LaunchForm(context.rc, {
        targetUrl,
        cacheKey,
        origin,
        consumerGuid: url.host,
      }),
    ),
  );
}
