import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { products } from '#db/schema/catalog.ts';
import { academicTerms } from '#db/schema/courses.ts';
import { auditEvents } from '#db/schema/operations.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import {
  AUDIT_PERSON_FIELDS,
  AUDIT_PRODUCT_FIELDS,
  AUDIT_TERM_FIELDS,
  type AuditAction,
} from './audit-actions.ts';

/**
 * Issue 39: every change a staff member makes is audited — who, when, acting as whom, before →
 * after — and readable on the object's page. Write the entry in the same transaction as the
 * change it describes, so neither exists without the other.
 */
export type AuditActor = {
  /** The person at the keyboard (the manager, when acting through Switch Account). */
  userId: number | null;
  /** The account acted as, when it is not the actor's own. */
  actingAsUserId: number | null;
  /** Who, in words that outlive the account ('Alex Morgan <manager@demo.test>', 'roster import'). */
  label: string;
};

/** A signed-in user as the actor: through Switch Account the manager acts as the user. */
export function auditActorOf(
  user: Pick<
    SessionUser,
    'id' | 'email' | 'firstName' | 'lastName' | 'impersonatorId' | 'impersonatorLabel'
  >,
  impersonatorLabel?: string,
): AuditActor {
  const own = `${`${user.firstName} ${user.lastName}`.trim() || user.email} <${user.email}>`;
  if (user.impersonatorId != null) {
    return {
      userId: user.impersonatorId,
      actingAsUserId: user.id,
      label: impersonatorLabel ?? user.impersonatorLabel ?? `#${user.impersonatorId}`,
    };
  }
  return { userId: user.id, actingAsUserId: null, label: own };
}

/** A change made by the system on staff's behalf (a roster import run from the command line). */
export function systemActor(label: string): AuditActor {
  return { userId: null, actingAsUserId: null, label };
}

/** JSON-safe values only: what a page shows as before → after. */
export type AuditValues = Record<string, string | number | boolean | null>;

export type AuditEntry = {
  orgId: number | null;
  objectType: string;
  objectId: string | number;
  /** One of AUDIT_ACTIONS: each has a message on the object's page. */
  action: AuditAction;
  before?: AuditValues | null;
  after?: AuditValues | null;
  reason?: string | null;
};

/** Only the fields that changed, before and after; nothing when nothing changed. */
export function changedValues(
  before: AuditValues,
  after: AuditValues,
): { before: AuditValues; after: AuditValues } | null {
  const b: AuditValues = {};
  const a: AuditValues = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[key] ?? null;
    const is = after[key] ?? null;
    if (was !== is) {
      b[key] = was;
      a[key] = is;
    }
  }
  return Object.keys(a).length === 0 ? null : { before: b, after: a };
}

export async function recordAudit(
  db: Queryable,
  actor: AuditActor,
  entry: AuditEntry,
  at?: Date,
): Promise<void> {
  await recordAudits(db, actor, [entry], at);
}

/** Several entries of one actor in one statement (a roster import's chunk). */
export async function recordAudits(
  db: Queryable,
  actor: AuditActor,
  entries: readonly AuditEntry[],
  at?: Date,
): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(auditEvents).values(
    entries.map((entry) => ({
      ...(at ? { occurredAt: at } : {}),
      actorUserId: actor.userId,
      actingAsUserId: actor.actingAsUserId,
      actorLabel: actor.label.slice(0, 300),
      orgId: entry.orgId,
      objectType: entry.objectType,
      objectId: String(entry.objectId),
      action: entry.action,
      before: entry.before ?? null,
      after: entry.after ?? null,
      reason: entry.reason ?? null,
    })),
  );
}

export type AuditLine = {
  id: number;
  occurredAt: Date;
  actorLabel: string;
  actingAsUserId: number | null;
  action: string;
  before: AuditValues | null;
  after: AuditValues | null;
  reason: string | null;
  /** Names of the people the line mentions (the account acted as, userId values), by id. */
  people: Record<number, string>;
  /** Names of the terms its termId values name, by id. */
  terms: Record<number, string>;
  /** Titles of the products its productId values name, by id. */
  products: Record<number, string>;
};

/** An object's audit, newest first (the object's page shows it; the caller checks scope). */
export async function auditTrail(
  db: Queryable,
  objectType: string,
  objectId: string | number,
  limit = 100,
): Promise<AuditLine[]> {
  const rows = await db
    .select({
      id: auditEvents.id,
      occurredAt: auditEvents.occurredAt,
      actorLabel: auditEvents.actorLabel,
      actingAsUserId: auditEvents.actingAsUserId,
      action: auditEvents.action,
      before: auditEvents.before,
      after: auditEvents.after,
      reason: auditEvents.reason,
    })
    .from(auditEvents)
    .where(and(eq(auditEvents.objectType, objectType), eq(auditEvents.objectId, String(objectId))))
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .limit(limit);
  const lines = rows.map((r) => ({
    ...r,
    before: (r.before as AuditValues | null) ?? null,
    after: (r.after as AuditValues | null) ?? null,
  }));
  const [names, termNames, productTitles] = await Promise.all([
    namesOf(db, [...new Set(lines.flatMap(peopleOf))]),
    termNamesOf(db, [...new Set(lines.flatMap((line) => idsOf(line, AUDIT_TERM_FIELDS)))]),
    productTitlesOf(db, [...new Set(lines.flatMap((line) => idsOf(line, AUDIT_PRODUCT_FIELDS)))]),
  ]);
  const known = (ids: number[], found: Map<number, string>) =>
    Object.fromEntries(ids.flatMap((id) => (found.has(id) ? [[id, found.get(id)!]] : [])));
  return lines.map((line) => ({
    ...line,
    people: known(peopleOf(line), names),
    terms: known(idsOf(line, AUDIT_TERM_FIELDS), termNames),
    products: known(idsOf(line, AUDIT_PRODUCT_FIELDS), productTitles),
  }));
}

/** The user ids a line mentions: the account acted as and the person fields' values. */
function peopleOf(line: Pick<AuditLine, 'actingAsUserId' | 'before' | 'after'>): number[] {
  return [
    ...(line.actingAsUserId === null ? [] : [line.actingAsUserId]),
    ...idsOf(line, AUDIT_PERSON_FIELDS),
  ];
}

/** The ids a line's before and after values give these fields. */
function idsOf(line: Pick<AuditLine, 'before' | 'after'>, fields: readonly string[]): number[] {
  const ids: number[] = [];
  for (const values of [line.before, line.after]) {
    for (const field of fields) {
      const id = values?.[field];
      if (typeof id === 'number' && Number.isSafeInteger(id)) ids.push(id);
    }
  }
  return ids;
}

/** Terms as the trail names them: their title. */
async function termNamesOf(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: academicTerms.id, title: academicTerms.title })
    .from(academicTerms)
    .where(inArray(academicTerms.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** Products as the trail names them: their title. */
async function productTitlesOf(
  db: Queryable,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: products.id, title: products.title })
    .from(products)
    .where(inArray(products.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** A person as the trail names them: their name, else their e-mail address. */
async function namesOf(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((r) => [r.id, `${r.firstName} ${r.lastName}`.trim() || r.email]));
}
