import { startSession } from '#domain/accounts/service.ts';
import { mergeAnonymousCart } from '#domain/commerce/cart.ts';
import type { WebContext } from '#server/load-context.ts';
import { sessionCookie } from '#web/utils/session-cookie.server.ts';

/**
 * Signs this browser in as the account (a new sign-up, a password reset): a new session with
 * its browser for the list of devices, and the guest cart joins the account's (issue 4), as
 * logging in does. Returns the cookie to set.
 */
export async function signInBrowser(
  request: Request,
  context: WebContext,
  userId: number,
): Promise<string> {
  const session = await startSession(context.rc.db, {
    userId,
    previousToken: context.sessionToken,
    now: context.rc.now,
    userAgent: request.headers.get('user-agent'),
  });
  if (context.anonymousKey) {
    await mergeAnonymousCart(context.rc, context.anonymousKey, userId);
  }
  return sessionCookie(context, session.token, session.expiresAt);
}
