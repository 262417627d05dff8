import type { Route } from './+types/demo-tool-login.ts';
import { demoLogin } from './demo-tool.server.ts';

// /demo-tool/lti13/login: the demo tool's OIDC login initiation (GET or POST).
export function loader({ request }: Route.LoaderArgs) {
  return demoLogin(request, new URL(request.url).searchParams);
}

export async function action({ request }: Route.ActionArgs) {
  return demoLogin(request, await request.formData().catch(() => new FormData()));
}
