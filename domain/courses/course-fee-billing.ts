import { isBeforeDeadline, type OptStatus } from './opting.ts';

/**
 * Issue 39, billing the bursar: after a section's opt-out deadline the students still opted in
 * are charged the section's course fee through the campus's student account. One rule for the
 * billing run, its preview, the term's dashboard ("expected billing") and reconciliation.
 */
export type BillableMember = {
  role: string;
  optStatus: OptStatus;
  /** The section's course fee in integer cents (null: the section has none). */
  courseFeeCents: number | null;
};

/** The course fee this member is charged, in cents, or null when they are not charged. */
export function courseFeeChargeCents(member: BillableMember): number | null {
  if (member.role !== 'student') return null;
  if (member.optStatus !== 'opted_in') return null;
  if (member.courseFeeCents === null || member.courseFeeCents <= 0) return null;
  return member.courseFeeCents;
}

/** A section is billed only once its opt-out deadline has passed. */
export function billingOpen(optOutDeadline: Date, now: Date): boolean {
  return !isBeforeDeadline(optOutDeadline, now);
}

/** The end of the add/drop period: its own instant, or the opt-out deadline when none is set. */
export function dropPeriodEnd(section: { addDropAt: Date; dropPeriodEndsAt: Date | null }): Date {
  return section.dropPeriodEndsAt ?? section.addDropAt;
}

/** A billed student who drops by the end of the add/drop period is credited in the next file. */
export function dropIsCredited(input: { droppedAt: Date; dropPeriodEnd: Date }): boolean {
  return input.droppedAt.getTime() <= input.dropPeriodEnd.getTime();
}

/**
 * A student whose enrolment ended after the opt-out deadline and after the add/drop period
 * still owes the course fee they stood charged for at the drop: a late drop is not credited,
 * so a run made after it bills it (and one made before it is not given back).
 */
export function dropStillChargedCents(input: {
  member: BillableMember;
  droppedAt: Date;
  optOutDeadline: Date;
  dropPeriodEnd: Date;
}): number | null {
  if (!billingOpen(input.optOutDeadline, input.droppedAt)) return null;
  if (dropIsCredited({ droppedAt: input.droppedAt, dropPeriodEnd: input.dropPeriodEnd }))
    return null;
  return courseFeeChargeCents(input.member);
}
