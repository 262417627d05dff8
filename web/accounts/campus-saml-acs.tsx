import { redirect, useActionData } from 'react-router';
import { z } from 'zod';
import { finishSamlSignIn, parkCampusSignIn } from '#domain/accounts/campus-sign-in-service.ts';
import { originOf } from '#web/launch/auto-post.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/campus-saml-acs.ts';
import { campusFailure } from './campus-sign-in.server.ts';
import { CampusSignInFailure } from './campus-sign-in.tsx';

// POST /accounts/campus/saml/acs (issue 20): the campus's SAML IdP posts its signed answer here
// (HTTP-POST binding, from its own site: CSRF-exempt, checked by node-saml instead). The
// accepted sign-in is picked up by a same-site GET, which carries our cookies (guest cart).

const AcsForm = z.object({
  SAMLResponse: z
    .string()
    .min(1)
    .max(500_000)
    .regex(/^[A-Za-z0-9+/=\s]+$/),
  RelayState: z.string().max(2000).optional(),
});

// No loader: after a refused answer the page renders the action's reason (a loader that
// redirected would turn every refusal into that redirect).

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = AcsForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return campusFailure('invalid');
  const outcome = await finishSamlSignIn(context.rc, {
    samlResponse: parsed.data.SAMLResponse.replace(/\s+/g, ''),
    origin: originOf(request),
  });
  if (!outcome.ok) return campusFailure(outcome.reason);
  const handle = await parkCampusSignIn(context.rc, outcome);
  return redirect(`/accounts/campus/finish/?handle=${encodeURIComponent(handle)}`, {
    status: 303,
    headers: { 'Cache-Control': 'no-store' },
  });
}

export default function CampusSamlAcsPage() {
  const result = useActionData<{ reason: string }>();
  return <CampusSignInFailure reason={result?.reason ?? 'invalid'} />;
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'campus.title');
