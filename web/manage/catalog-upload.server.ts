import { UPLOAD_FIELD } from '#server/edge.ts';
import type { UploadedFile } from '#server/upload-reader.ts';

/**
 * The files of a streamed upload, as the edge hands them to the application (server/edge.ts):
 * each a form field holding its temporary path. Nothing else can write that field.
 */
export function uploadedFiles(form: FormData): UploadedFile[] {
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
