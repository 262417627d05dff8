import { redirect } from 'react-router';
import { endSession } from '#domain/accounts/service.ts';
import { loggedOutHeaders } from '#web/utils/session-cookie.server.ts';
import type { Route } from './+types/ajax-logout.ts';

// spec 2 §7 Logout: POST /ajax/logout/ with csrfmiddlewaretoken (checked by the server for
// every unsafe request); on success back to the origin.
export async function action({ context }: Route.ActionArgs) {
  if (context.sessionToken) await endSession(context.rc.db, context.sessionToken);
  return redirect('/', { headers: loggedOutHeaders(context) });
}

export function loader() {
  return redirect('/accounts/logout/');
}
