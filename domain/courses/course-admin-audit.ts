import type { Queryable } from '#db/client.ts';
import {
  type AuditActor,
  type AuditValues,
  changedValues,
  recordAudit,
} from '#domain/operations/audit.ts';
import type { AuditAction } from '#domain/operations/audit-actions.ts';

// Issue 39: "Every change a staff member makes is audited (who, when, acting as whom, before →
// after), and the audit is readable on the object's page." The Course Manager's changes, each
// written on the page of the term, course or section it changed, in the change's own
// transaction — one shape for each kind of change (made, edited, ended, or a line of the
// section's members and materials changed).

/** The page a change is read on. */
export type AuditedObject = {
  orgId: number;
  objectType: 'term' | 'course' | 'section';
  objectId: number;
};

/** Who changes it, and when (the request's clock). */
export type Auditor = { actor: AuditActor; now: Date };

/** A change on the object's page: before → after (null: it was not there, or is no more). */
export async function auditChange(
  tx: Queryable,
  by: Auditor,
  object: AuditedObject,
  action: AuditAction,
  change: { before?: AuditValues | null; after?: AuditValues | null },
): Promise<void> {
  await recordAudit(tx, by.actor, { ...object, action, ...change }, by.now);
}

/**
 * An edit writes and audits only the fields that changed, before → after; when none did
 * (the form saved unchanged) it writes and records nothing.
 */
export async function auditedEdit(
  tx: Queryable,
  by: Auditor,
  object: AuditedObject,
  action: AuditAction,
  values: { before: AuditValues; after: AuditValues },
  write: () => Promise<unknown>,
): Promise<void> {
  const diff = changedValues(values.before, values.after);
  if (!diff) return;
  await write();
  await auditChange(tx, by, object, action, diff);
}

/**
 * Ends the object once: it stays, with its history, marked ended now (`write` stamps it); an
 * object already ended is left as it is and nothing is recorded.
 */
export async function auditedEnd(
  tx: Queryable,
  by: Auditor,
  object: AuditedObject,
  endedAt: Date | null,
  write: () => Promise<unknown>,
): Promise<void> {
  if (endedAt) return;
  await write();
  await auditChange(tx, by, object, `${object.objectType}.end`, {
    before: { endedAt: null },
    after: { endedAt: by.now.toISOString() },
  });
}
