import { Link, useLoaderData } from 'react-router';
import { toolReturn } from '#domain/access/launch-service.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/launch-return.ts';

// /lti/return/?launch=…[&lti_errormsg=…|&lti_msg=…]: the launch presentation's return_url
// (issue 14). A tool that refused the launch says why here; the launch is recorded as refused
// and the user reads the tool's reason, with the way back to the course section.
export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(request, context);
  const query = new URL(request.url).searchParams;
  const errorMessage = query.get('lti_errormsg')?.slice(0, 500) || null;
  const message = query.get('lti_msg')?.slice(0, 500) || null;
  const launch = await toolReturn(context.rc, {
    launchId: query.get('launch') ?? '',
    errorMessage,
  });
  return { errorMessage, message, sectionId: launch?.sectionId ?? null };
}

export default function LaunchReturn() {
  const { errorMessage, message, sectionId } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('launch.return.title')}</h1>
      {errorMessage ? (
        <p className="alert alert--error" role="alert">
          {t('launch.return.error', { message: errorMessage })}
        </p>
      ) : (
        <p>{message ?? t('launch.return.ok')}</p>
      )}
      <p>
        {sectionId ? (
          <Link to={`/shelf/course-section/${sectionId}`} className="button button--primary">
            {t('launch.return.section')}
          </Link>
        ) : (
          <Link to="/shelf/" className="button button--primary">
            {t('library.toShelf')}
          </Link>
        )}
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'launch.return.title');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
