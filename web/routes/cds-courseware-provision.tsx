import { data, Link, redirect, useLoaderData } from 'react-router';
import { launchVersion, sectionOfMember } from '#domain/access/launch-service.ts';
import { cdsMembership } from '#domain/reading/reader-access.ts';
import { parseId } from '#domain/shared/id.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/cds-courseware-provision.ts';

// /cds_courseware_provision/{productId}/?coursemember_id={id}: a CDS member's courseware.
// The membership is checked exactly as /cds_book_read/ checks it, then the courseware is
// launched over its registered tool (issue 14: /lti/launch/ with the member's section); without
// a registered tool the page says so.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const productId = parseId(params.id);
  if (productId === null) throw data(null, { status: 404 });
  requireUser(request, context);
  const memberId = parseId(new URL(request.url).searchParams.get('coursemember_id'));
  if (memberId === null) throw data(null, { status: 403 });
  const membership = await cdsMembership(context.rc, productId, memberId);
  const sectionId = await sectionOfMember(context.rc, memberId);
  if (sectionId !== null && (await launchVersion(context.rc.db, productId)) !== null) {
    throw redirect(`/lti/launch/?courseware_id=${productId}&section_id=${sectionId}`);
  }
  return membership;
});

export default function CdsCoursewareProvision() {
  const { productTitle } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{productTitle}</h1>
      <p className="alert">{t('launch.error.noTool')}</p>
      <p>
        <Link to="/library/" className="button button--primary">
          {t('reader.backToLibrary')}
        </Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'cds.courseware.title');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
