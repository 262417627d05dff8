import { campusServiceProviderMetadata } from '#domain/accounts/campus-sign-in-service.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { parseId } from '#domain/shared/id.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { originOf } from '#web/launch/auto-post.server.ts';
import { attachment } from '#web/utils/attachment.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/campus-saml-metadata.ts';

// GET /accounts/campus/saml/metadata/{campusId} (issue 20, decision 023 "Settings"): our SAML
// service-provider metadata for one campus, what its IT registers us with — public, as SAML
// metadata is. An unknown id, a malformed one or an OpenID Connect campus is the site's 404
// page in the visitor's language (a page route answering a file, as the receipt's PDF is).
export const loader = withDomainErrors(async ({ params, request, context }: Route.LoaderArgs) => {
  const campusId = parseId(params.campusId);
  const xml =
    campusId === null
      ? null
      : await campusServiceProviderMetadata(context.rc, campusId, originOf(request));
  if (xml === null) throw new NotFound();
  return attachment(xml, {
    filename: `shelfmark-sp-${campusId}.xml`,
    contentType: 'application/samlmetadata+xml; charset=utf-8',
  });
});

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
