import { UPLOAD_FIELD } from '#server/edge.ts';
import type { WebContext } from '#server/load-context.ts';
import type { UploadedFile } from '#server/upload-reader.ts';

/**
 * The files of a streamed upload, as the edge hands them to the application (server/edge.ts):
 * each a form field holding its temporary path. The edge writes that field only for a request
 * it streamed, and strips it from what the sender wrote there. The same page reached by another
 * spelling of its path (a trailing slash, a capital, '/.data': React Router matches them all)
 * gets the sender's form as sent, where the field would name any file of the server's: there it
 * is ignored (issue 39, bad input).
 */
export function uploadedFiles(context: WebContext, form: FormData): UploadedFile[] {
  if (!context.streamedUpload) return [];
  const files: UploadedFile[] = [];
  for (const value of form.getAll(UPLOAD_FIELD)) {
    if (typeof value !== 'string') continue;
    try {
      const file = JSON.parse(value) as UploadedFile;
      if (typeof file.path === 'string' && typeof file.fileName === 'string') files.push(file);
    } catch {
      // Not the edge's: ignored.
    }
  }
  return files;
}
