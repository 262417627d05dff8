import { data } from 'react-router';
import type { Route } from './+types/demo-tool-launch11.ts';
import { demoLaunch11 } from './demo-tool.server.ts';

// POST /demo-tool/lti11/launch: the demo tool's LTI 1.1 launch URL.
export function loader() {
  throw data(null, { status: 405 });
}

export async function action({ request, context }: Route.ActionArgs) {
  return demoLaunch11(
    request,
    await request.formData().catch(() => new FormData()),
    context.rc.now,
  );
}
