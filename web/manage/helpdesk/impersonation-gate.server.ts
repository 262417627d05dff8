import { data } from 'react-router';
import {
  impersonationRefusal,
  type SelfServiceAction,
} from '#domain/operations/helpdesk/impersonation.ts';
import type { WebContext } from '#server/load-context.ts';

/**
 * Issue 39: what a person does for themselves (password, e-mail, passkeys, second factor,
 * payment, privacy) is refused to anyone acting as them through Switch Account: a 403 that
 * says why, in the page's language. The pages and API calls of those actions ask it first.
 */
export function refuseWhileSwitched(context: WebContext, action: SelfServiceAction): void {
  const refusal = impersonationRefusal(context.rc.user, action);
  if (refusal) throw data({ messageKey: refusal }, { status: 403 });
}
