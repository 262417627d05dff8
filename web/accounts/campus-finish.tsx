import { pickUpCampusSignIn } from '#domain/accounts/campus-sign-in-service.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/campus-finish.ts';
import { campusFailure, campusSignedIn } from './campus-sign-in.server.ts';
import { CampusSignInFailure } from './campus-sign-in.tsx';

// GET /accounts/campus/finish/?handle=… (issue 20): a SAML sign-in accepted on the IdP's POST,
// picked up once, here where the browser sends our cookies: session, guest cart, `next`.

export async function loader({ request, context }: Route.LoaderArgs) {
  const handle = new URL(request.url).searchParams.get('handle') ?? '';
  const done = await pickUpCampusSignIn(context.rc, handle);
  if (!done) return campusFailure('expired-request');
  return campusSignedIn(context, done.userId, done.next);
}

export default function CampusFinishPage() {
  return <CampusSignInFailure reason="expired-request" />;
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'campus.title');
