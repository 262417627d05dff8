import { parseId } from '#domain/shared/id.ts';
import {
  domainRefusal,
  fileResponse,
  loginFirst,
  refusal,
} from '#web/utils/file-response.server.ts';
import type { Route } from './+types/bookfile-download.ts';

// GET /bookfile/{fileId}/download: a book's document (study guide…) as an attachment, for
// its owners only. Reader files are read in the reader, not downloaded (their DRM would not
// follow them).
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const fileId = parseId(params.fileId);
  if (fileId === null) return refusal(context, 404, 'error.notFound');
  if (!context.rc.user) return loginFirst(request);
  try {
    return await fileResponse(request, context, context.bookFiles, fileId, { download: true });
  } catch (error) {
    return domainRefusal(context, error);
  }
}
