import { redirect } from 'react-router';
import type { SessionUser } from '#domain/accounts/types.ts';
import type { WebContext } from '#server/load-context.ts';

/** Anonymous visitors go to the login page with `next` set to where they were going. */
export function requireUser(request: Request, context: WebContext): SessionUser {
  if (context.rc.user) return context.rc.user;
  const url = new URL(request.url);
  throw redirect(`/accounts/login/?next=${encodeURIComponent(url.pathname + url.search)}`);
}
