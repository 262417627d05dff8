import { data } from 'react-router';
import {
  passkeyRegistrationOptions,
  passkeySignInOptions,
} from '#domain/accounts/passkey-service.ts';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { SIGN_IN_STEP_TTL_MS } from '#domain/accounts/second-factor.ts';
import { refuseWhileSwitched } from '#web/manage/helpdesk/impersonation-gate.server.ts';
import type { Route } from './+types/passkey-options.ts';
import { PASSKEY_STEP_COOKIE, relyingParty, stepCookie } from './sign-in.server.ts';

// POST /accounts/passkey/options (issue 20): the options of a passkey ceremony, with its
// challenge kept on the server behind a short-lived cookie. 'register' is for the signed-in
// account only; 'sign-in' for anyone (the passkey says who).
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const purpose = form.get('purpose');
  const rp = relyingParty(request, context);
  const expiresAt = new Date(context.rc.now.getTime() + SIGN_IN_STEP_TTL_MS);
  if (purpose === 'register') {
    if (!context.rc.user) return data({ error: 'error.forbidden' }, { status: 403 });
    refuseWhileSwitched(context, 'passkeys');
    const { options, token } = await passkeyRegistrationOptions(context.rc, {
      userId: context.rc.user.id,
      rp,
    });
    return Response.json(options, {
      headers: { 'Set-Cookie': stepCookie(context, PASSKEY_STEP_COOKIE, token, expiresAt) },
    });
  }
  if (purpose === 'sign-in') {
    const next = form.get('next');
    const { options, token } = await passkeySignInOptions(context.rc, {
      rp,
      next: safeNextPath(typeof next === 'string' ? next : null),
      anonymousKey: context.anonymousKey,
    });
    return Response.json(options, {
      headers: { 'Set-Cookie': stepCookie(context, PASSKEY_STEP_COOKIE, token, expiresAt) },
    });
  }
  return data({ error: 'error.invalid' }, { status: 400 });
}
