import { redirect } from 'react-router';
import { importUploadedFeed } from '#domain/catalog/catalog-import.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/catalog-imports.ts';
import { requireCatalogAdmin } from './catalog-admin.server.ts';
import { uploadedFiles } from './catalog-upload.server.ts';

// POST /manage/admin/imports (issue 15): the Admin page's upload. The edge has streamed the
// feed to a temporary file (server/edge.ts); here it is kept under the import's number and the
// import starts, and the manager goes on to its report, which follows it live.

const FEED_NAME = /\.(xml|onx|onix)$/i;

export function loader() {
  return redirect('/manage/admin');
}

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const user = requireCatalogAdmin(request, context);
  const files = uploadedFiles(context, await request.formData());
  const feed = files.find((file) => file.field === 'feed');
  if (!feed) return redirect('/manage/admin?error=noFile');
  if (!FEED_NAME.test(feed.fileName)) return redirect('/manage/admin?error=notXml');
  if (feed.bytes === 0) return redirect('/manage/admin?error=empty');
  const importing = await context.catalogImportDatabase();
  const id = await importUploadedFeed(
    importing.db,
    context.bookFiles,
    {
      fileName: feed.fileName,
      localPath: feed.path,
      bytes: feed.bytes,
      userId: user.id,
      now: context.rc.now,
      bookFiles: files
        .filter((file) => file.field === 'files')
        .map((file) => ({ fileName: file.fileName, localPath: file.path })),
    },
    {
      // One batch at a time, as the command line does by default: the store keeps serving its
      // shoppers while a manager's import runs (docs/benchmarks.md, session 23).
      writers: 1,
      onError: (error) => context.log.error({ err: error }, 'catalog import stopped'),
    },
  );
  return redirect(`/manage/admin/imports/${id}`);
});
