/**
 * Issue 39: the changes an audit entry may record, as the code base writes them. The action
 * parameter of recordAudit is typed by this list, so a new kind of change is added here first —
 * and web/manage/audit-wording.ts, whose test asks for a message of each in every language,
 * tells the manager what it means. No database here: the wording and its test read it.
 */
export const AUDIT_ACTIONS = [
  // Terms, courses and sections (Course Manager).
  'term.create',
  'term.edit',
  'term.end',
  'course.create',
  'course.edit',
  'course.end',
  'section.create',
  'section.edit',
  'section.end',
  // A section's people and materials.
  'member.add',
  'member.update',
  'member.role',
  'member.end',
  'material.add',
  'material.remove',
  'material.required',
  // The roster import, on terms, courses, sections and people.
  'roster.create',
  'roster.update',
  'roster.link',
  'roster.end',
  // Bursar billing: a term's run, a charge's refund, the organisation's file columns.
  'billing.run',
  'refund',
  'update',
  // Refunds of an order's lines.
  'refund.refuse',
  // The help desk: a person's account, roles and Switch Account.
  'lock',
  'unlock',
  'mail.verify',
  'mail.reset',
  'role.grant',
  'role.revoke',
  'impersonate.start',
  'impersonate.end',
  'impersonate.request',
  // My Inventory: a delivery received, a count saved.
  'stock.receive',
  'stock.count',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(code: string): code is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(code);
}

/** Fields whose value is a user id: the trail shows the person's name instead (auditTrail). */
export const AUDIT_PERSON_FIELDS = ['userId'] as const;

/** Fields whose value is a term's id: the trail shows the term's name (auditTrail). */
export const AUDIT_TERM_FIELDS = ['termId'] as const;

/** Fields whose value is a product's id: the trail shows the product's title (auditTrail). */
export const AUDIT_PRODUCT_FIELDS = ['productId'] as const;
