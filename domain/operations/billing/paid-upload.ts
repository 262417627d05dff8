import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { RequestContext } from '#domain/shared/context.ts';
import type { OrgScope } from '../staff-scope.ts';
import { billingTermOf } from './billing-facts.ts';
import { PAID_UPLOAD_LIMIT_BYTES } from './billing-limits.ts';
import { billingMapping, termReconciliation } from './billing-service.ts';
import { type PaidFile, readPaidFile } from './paid-file.ts';
import type { Reconciliation } from './reconciliation.ts';

// Issue 39: "A roster or billing upload is limited in size and streamed." The campus's paid file
// reaches the reconciliation page as the edge left it: streamed to a temporary file within
// PAID_UPLOAD_LIMIT_BYTES (server/edge.ts). It is read from there a chunk at a time, compared,
// and deleted: the paid file changes nothing and is not kept.

/** A file the edge streamed to disk (server/upload-reader.ts UploadedFile). */
export type PaidUpload = { fileName: string; path: string; bytes: number };

export type PaidReconciliation =
  | { ok: true; reconciliation: Reconciliation; rows: number }
  | {
      ok: false;
      status: 400 | 413;
      message:
        | 'ops.billing.paid.error.noFile'
        | 'ops.billing.paid.error.tooLarge'
        | Extract<PaidFile, { ok: false }>['problem'];
      line?: number;
    };

/**
 * The term's reconciliation against the uploaded paid file; a term outside the person's scope is
 * not found before the file is read. The temporary file is removed whatever the outcome.
 */
export async function reconcileWithPaidUpload(
  rc: RequestContext,
  scope: OrgScope,
  termId: number,
  upload: PaidUpload | null,
): Promise<PaidReconciliation> {
  try {
    const term = await billingTermOf(rc.db, scope, termId);
    if (!upload || upload.bytes === 0) {
      return { ok: false, status: 400, message: 'ops.billing.paid.error.noFile' };
    }
    // The edge refuses a larger body first; a file that got past it some other way is not read.
    if (upload.bytes > PAID_UPLOAD_LIMIT_BYTES) {
      return { ok: false, status: 413, message: 'ops.billing.paid.error.tooLarge' };
    }
    const { columns } = await billingMapping(rc, scope, term.orgId);
    const header = (field: string) => columns.find((c) => c.field === field)?.header ?? null;
    const paid = await readPaidFile(createReadStream(upload.path, { highWaterMark: 64 * 1024 }), {
      campusId: header('campus_id') ?? 'campus_id',
      amountDecimal: header('amount_decimal'),
      amountCents: header('amount_cents'),
    });
    if (!paid.ok) return { ok: false, status: 400, message: paid.problem, line: paid.line };
    const { reconciliation } = await termReconciliation(rc, scope, termId, paid.paid);
    return { ok: true, reconciliation, rows: paid.rows };
  } finally {
    if (upload) await rm(upload.path, { force: true });
  }
}
