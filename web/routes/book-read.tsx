import { data, useLoaderData } from 'react-router';
import { openReader } from '#domain/reading/service.ts';
import { savedReaderSettings } from '#domain/reading/settings-service.ts';
import { parseId } from '#domain/shared/id.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { KEEP_HEADER } from '#web/reading/keep-header.ts';
import { Reader } from '#web/reading/reader.tsx';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { rootDataFrom } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/book-read.ts';

// /book/read/{id}[/?course_id=…] and /cds_book_read/{id}/?coursemember_id=…: the reader
// (issue 5). Owners only (a CDS member through their own membership); anybody else sees the
// forbidden page, a visitor logs in first, a malformed or unknown id is not found.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const productId = parseId(params.id);
  if (productId === null) throw data(null, { status: 404 });
  const user = requireUser(request, context);
  const url = new URL(request.url);
  const cds = url.pathname.startsWith('/cds_book_read/');
  const courseMemberId = cds ? parseId(url.searchParams.get('coursemember_id')) : null;
  if (cds && courseMemberId === null) throw data(null, { status: 403 });
  const chapter = parseId(url.searchParams.get('chapter'));
  const courseSectionId = parseId(url.searchParams.get('course_id'));
  const view = await openReader(context.rc, context.bookFiles, {
    productId,
    via: { courseMemberId, courseSectionId },
    courseSectionId,
    part: chapter === null ? null : chapter - 1,
    // The reader's service worker keeping the page for offline reading is not an opening.
    recordOpen: request.headers.get(KEEP_HEADER) !== '1',
  });
  return {
    view: {
      ...view,
      grant: { via: view.grant.via, expiresAt: view.grant.expiresAt?.toISOString() ?? null },
    },
    userId: user.id,
    courseMemberId,
    path: url.pathname,
    csrfToken: context.csrfToken,
    settings: await savedReaderSettings(context.rc),
  };
});

export default function BookReadPage() {
  const { view, userId, courseMemberId, path, csrfToken, settings } =
    useLoaderData<typeof loader>();
  const t = useT();
  const member = courseMemberId === null ? '' : `coursemember_id=${courseMemberId}&`;
  return (
    <Reader
      key={view.product.id}
      view={view}
      userId={userId}
      courseMemberId={courseMemberId}
      csrfToken={csrfToken}
      savedSettings={settings}
      chapterHref={(part) => `${path}?${member}chapter=${part + 1}`}
      backTo={
        view.courseSectionId !== null
          ? {
              href: `/shelf/course-section/${view.courseSectionId}`,
              label: t('reader.backToCourse'),
            }
          : { href: '/library/', label: t('reader.backToLibrary') }
      }
    />
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  if (!loaderData) return [];
  const root = rootDataFrom(matches);
  return [
    { title: `${loaderData.view.product.title} | ${root?.site.title ?? 'Shelfmark'}` },
    { name: 'robots', content: 'noindex' },
  ];
};

// A refusal says why, with the way back (opting back in, buying), on the shared page.
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
