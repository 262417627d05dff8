import { data, Link, useLoaderData } from 'react-router';
import { cdsMembership } from '#domain/reading/service.ts';
import { parseId } from '#domain/shared/id.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/cds-courseware-provision.ts';

// /cds_courseware_provision/{productId}/?coursemember_id={id}: a CDS member's courseware.
// The membership is checked exactly as /cds_book_read/ checks it; the launch to the
// courseware provider itself is not built yet, and the page says so.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const productId = parseId(params.id);
  if (productId === null) throw data(null, { status: 404 });
  requireUser(request, context);
  const memberId = parseId(new URL(request.url).searchParams.get('coursemember_id'));
  if (memberId === null) throw data(null, { status: 403 });
  return cdsMembership(context.rc, productId, memberId);
});

export default function CdsCoursewareProvision() {
  const { productTitle } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{productTitle}</h1>
      <p className="alert">{t('cds.courseware.unavailable')}</p>
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
