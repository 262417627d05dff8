import { platformJwks } from '#domain/access/launch-service.ts';
import type { Route } from './+types/jwks.ts';

// GET /lti1p3/jwks and /.well-known/jwks.json: the platform's public keys (issue 14), the
// signing key and the retired ones whose tokens may still be in flight.
export async function loader({ context }: Route.LoaderArgs) {
  const jwks = await platformJwks(context.rc);
  return Response.json(jwks, {
    headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  });
}
