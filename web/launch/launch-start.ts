import { data } from 'react-router';
import {
  authorizeLti11Launch,
  LaunchRefused,
  launchVersion,
  startLti13Launch,
} from '#domain/access/launch-service.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/launch-start.ts';
import { autoPostResponse, launchFormHtml, launchStep, originOf } from './auto-post.server.ts';
import { parseLaunchQuery, wantsJson } from './launch-params.ts';

// GET /lti/launch/?courseware_id=…&section_id=…[&user_id=…&org_id=…&new_tab=True] (spec 2 §7
// "Courseware launch 2.0", issue 14): the 'Access Courseware' button's launch. Link 2.0 answers
// the OIDC login-initiation form to the tool (a page that posts itself, or as JSON html_form,
// redirect_uri, id_token and state: the last two come with the tool's authentication request,
// decision 017); Link 1.0 goes on to /lti1p0/link/launch/ with target_url and cache_key.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const url = new URL(request.url);
  const query = parseLaunchQuery(url);
  const json = wantsJson(request, query);
  if (!query?.courseware_id) throw data(null, { status: 400 });
  const productId = query.courseware_id;
  const sectionId = query.section_id ?? null;
  const origin = originOf(request);
  return launchStep(context, json, async () => {
    if (query.user_id !== undefined && query.user_id !== user.id) {
      throw new LaunchRefused('launch.error.otherUser');
    }
    const version = await launchVersion(context.rc.db, productId);
    if (version === '1.1') {
      const { targetUrl, cacheKey } = await authorizeLti11Launch(context.rc, {
        productId,
        sectionId,
        origin,
      });
      const next = `/lti1p0/link/launch/?target_url=${encodeURIComponent(targetUrl)}&cache_key=${encodeURIComponent(cacheKey)}`;
      if (json)
        return Response.json({
          lti_version: '1.1',
          target_url: targetUrl,
          cache_key: cacheKey,
          launch_url: next,
        });
      return new Response(null, { status: 303, headers: { Location: next } });
    }
    const form = await startLti13Launch(context.rc, {
      productId,
      sectionId,
      issuer: origin,
      origin,
    });
    if (json) {
      return Response.json(
        {
          lti_version: '1.3',
          html_form: launchFormHtml(form, context.rc.locale),
          redirect_uri: form.action,
          fields: form.fields,
          id_token: null,
          state: null,
        },
        { headers: { 'Cache-Control': 'no-store' } },
      );
    }
    return autoPostResponse(context, form);
  });
}
