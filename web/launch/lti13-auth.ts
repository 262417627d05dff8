import { data } from 'react-router';
import type { AuthRequest } from '#domain/access/courseware-launch.ts';
import { answerAuthRequest } from '#domain/access/launch-service.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/lti13-auth.ts';
import { autoPostResponse, launchFormHtml, launchStep, originOf } from './auto-post.server.ts';

// /lti1p3/link/launch/ (spec 2 §7 non-API link, issue 14): the tool's OIDC authentication
// request back to the platform, by GET (a redirect) or POST. Checked against the launch in
// flight, then answered with a page that posts id_token and state to the redirect URI; as
// JSON: html_form, redirect_uri, id_token, state (spec 2 §7 "Courseware launch 2.0").
const FIELDS = [
  'scope',
  'response_type',
  'response_mode',
  'prompt',
  'client_id',
  'redirect_uri',
  'login_hint',
  'lti_message_hint',
  'nonce',
  'state',
] as const;

function authRequestOf(values: URLSearchParams | FormData): AuthRequest {
  const request: Record<string, string> = {};
  for (const name of FIELDS) {
    const value = values.get(name);
    if (typeof value === 'string' && value.length <= 4096) request[name] = value;
  }
  return request as AuthRequest;
}

async function answer(request: Request, context: Route.LoaderArgs['context'], values: AuthRequest) {
  requireUser(request, context);
  const json = (request.headers.get('accept') ?? '').includes('application/json');
  const origin = originOf(request);
  return launchStep(context, json, async () => {
    const answered = await answerAuthRequest(context.rc, values, { issuer: origin, origin });
    const form = {
      action: answered.redirectUri,
      method: 'post' as const,
      fields: { id_token: answered.idToken, state: answered.state },
    };
    if (json) {
      return Response.json(
        {
          html_form: launchFormHtml(form, context.rc.locale),
          redirect_uri: answered.redirectUri,
          id_token: answered.idToken,
          state: answered.state,
        },
        { headers: { 'Cache-Control': 'no-store' } },
      );
    }
    return autoPostResponse(context, form);
  });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  return answer(request, context, authRequestOf(new URL(request.url).searchParams));
}

export async function action({ request, context }: Route.ActionArgs) {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data(null, { status: 400 });
  }
  return answer(request, context, authRequestOf(form));
}
