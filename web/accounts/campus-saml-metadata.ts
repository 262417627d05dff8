import { data } from 'react-router';
import { campusServiceProviderMetadata } from '#domain/accounts/campus-sign-in-service.ts';
import { parseId } from '#domain/shared/id.ts';
import { originOf } from '#web/launch/auto-post.server.ts';
import type { Route } from './+types/campus-saml-metadata.ts';

// GET /accounts/campus/saml/metadata/{campusId} (issue 20, decision 023 "Settings"): our SAML
// service-provider metadata for one campus, what its IT registers us with — public, as SAML
// metadata is. 404 for an unknown id, a malformed one or an OpenID Connect campus.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const campusId = parseId(params.campusId);
  const xml =
    campusId === null
      ? null
      : await campusServiceProviderMetadata(context.rc, campusId, originOf(request));
  if (xml === null) throw data(null, { status: 404 });
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/samlmetadata+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      'Content-Disposition': `inline; filename="shelfmark-sp-${campusId}.xml"`,
    },
  });
}
