import { data } from 'react-router';
import type { Route } from './+types/demo-tool-launch13.ts';
import { demoLaunch13 } from './demo-tool.server.ts';

// POST /demo-tool/lti13/launch: the demo tool's redirect URI (id_token and state).
export function loader() {
  throw data(null, { status: 405 });
}

export async function action({ request }: Route.ActionArgs) {
  return demoLaunch13(request, await request.formData().catch(() => new FormData()));
}
