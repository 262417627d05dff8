import { data } from 'react-router';
import { verifyPasskeySignIn } from '#domain/accounts/passkey-service.ts';
import type { WebContext } from '#server/load-context.ts';
import {
  clearStepCookie,
  PASSKEY_STEP_COOKIE,
  relyingParty,
  signIn,
  stepToken,
} from './sign-in.server.ts';

/** The login form's 'Sign in with a passkey' post: the assertion checked, then as a password login. */
export async function passkeySignIn(
  request: Request,
  context: WebContext,
  form: Record<string, FormDataEntryValue>,
  next: string,
): Promise<Response | ReturnType<typeof refused>> {
  const response = parseAssertion(form.assertion);
  if (!response) return refused('login.passkey.error.failed');
  const outcome = await verifyPasskeySignIn(context.rc, {
    token: stepToken(request, PASSKEY_STEP_COOKIE),
    response,
    rp: relyingParty(request, context),
  });
  if (!outcome.ok) {
    return refused(
      outcome.reason === 'expired' ? 'login.passkey.error.expired' : 'login.passkey.error.failed',
    );
  }
  const answer = await signIn(context, { userId: outcome.value.userId, method: 'passkey', next });
  answer.headers.append('Set-Cookie', clearStepCookie(context, PASSKEY_STEP_COOKIE));
  return answer;
}

function refused(messageId: string) {
  return data(
    { errors: { form: messageId } as Record<string, string>, email: '', retryAfterMinutes: 0 },
    { status: 400 },
  );
}

// The assertion as @simplewebauthn/browser sends it; anything else is refused before the library.
function parseAssertion(raw: FormDataEntryValue | undefined) {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 20_000) return null;
  try {
    const value = JSON.parse(raw);
    if (
      value &&
      typeof value === 'object' &&
      typeof value.id === 'string' &&
      typeof value.rawId === 'string' &&
      value.type === 'public-key' &&
      value.response &&
      typeof value.response.clientDataJSON === 'string' &&
      typeof value.response.authenticatorData === 'string' &&
      typeof value.response.signature === 'string'
    ) {
      return value;
    }
  } catch {
    return null;
  }
  return null;
}
