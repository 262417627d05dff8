import { useLoaderData } from 'react-router';
import { finishOidcSignIn } from '#domain/accounts/campus-sign-in-service.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/campus-oidc-callback.ts';
import { campusFailure, campusSignedIn } from './campus-sign-in.server.ts';
import { CampusSignInFailure } from './campus-sign-in.tsx';

// GET /accounts/campus/oidc/callback?code=…&state=… (issue 20): the campus's OpenID provider
// sends the student back here; openid-client checks state, PKCE, nonce and the ID token.

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (url.searchParams.has('error') && !url.searchParams.has('code')) {
    return campusFailure('provider-refused');
  }
  const outcome = await finishOidcSignIn(context.rc, url);
  if (!outcome.ok) return campusFailure(outcome.reason);
  return campusSignedIn(context, outcome.userId, outcome.next);
}

export default function CampusOidcCallbackPage() {
  const { reason } = useLoaderData<{ reason: string }>();
  return <CampusSignInFailure reason={reason} />;
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'campus.title');
