import {
  billingOpen,
  courseFeeChargeCents,
  dropIsCredited,
  dropPeriodEnd,
  dropStillChargedCents,
} from '#domain/courses/course-fee-billing.ts';
import type { OptStatus } from '#domain/courses/opting.ts';

/**
 * Issue 39, billing the bursar: what the next charge file of a term holds, from what is known
 * now — the term's sections, their current members, ended enrolments and what earlier files
 * already billed. Pure: the preview and the final run ask it with the same facts, so the file
 * is exactly the preview staff saw. Who is charged is course-fee-billing.ts's answer alone.
 */
export const BILLING_CURRENCY = 'USD';

export type RunSection = {
  sectionId: number;
  /** 'BIO 101' */
  courseCode: string;
  /** The section's own name or number, as the campus knows it. */
  sectionLabel: string;
  addDropAt: Date;
  dropPeriodEndsAt: Date | null;
  courseFeeCents: number | null;
  /** The course's time zone: its deadline is shown in it. */
  timeZone: string;
};

export type Person = { userId: number; campusId: string | null; name: string; email: string };

export type RunMember = Person & {
  sectionId: number;
  role: string;
  optStatus: OptStatus;
  /** The member's own opt-out deadline (what opting asks: opting.ts reads addDropDate). */
  addDropDate: Date;
};

export type RunDrop = Person & {
  sectionId: number;
  role: string;
  optStatus: OptStatus;
  droppedAt: Date;
};

export type BilledCharge = {
  chargeId: number;
  sectionId: number;
  userId: number;
  amountCents: number;
  campusId: string;
  /** A credit already reverses it. */
  credited: boolean;
  /** Staff marked it refunded by the campus. */
  refunded: boolean;
};

export type BillingLine = {
  kind: 'charge' | 'credit';
  sectionId: number;
  courseCode: string;
  sectionLabel: string;
  userId: number;
  campusId: string;
  name: string;
  email: string;
  /** Positive for a charge, negative for a credit. */
  amountCents: number;
  /** The charge a credit reverses, and why. */
  reversesChargeId: number | null;
  creditReason: 'drop' | 'refund' | null;
};

export type WaitingSection = {
  sectionId: number;
  courseCode: string;
  sectionLabel: string;
  deadline: Date;
  timeZone: string;
};
export type MissingCampusId = Person & {
  sectionId: number;
  courseCode: string;
  sectionLabel: string;
};

export type RunLines = {
  lines: BillingLine[];
  /** Sections whose opt-out deadline has not passed: nobody in them is billed yet. */
  waiting: WaitingSection[];
  /** Students who would be charged but have no campus id on file: not billed until they do. */
  missingCampusId: MissingCampusId[];
};

const pairKey = (sectionId: number, userId: number) => `${sectionId}:${userId}`;

/** The latest ended enrolment of each (section, person). */
function latestDrops(drops: readonly RunDrop[]): Map<string, RunDrop> {
  const latest = new Map<string, RunDrop>();
  for (const drop of drops) {
    const key = pairKey(drop.sectionId, drop.userId);
    const seen = latest.get(key);
    if (!seen || seen.droppedAt.getTime() < drop.droppedAt.getTime()) latest.set(key, drop);
  }
  return latest;
}

export function billingRunLines(input: {
  sections: readonly RunSection[];
  members: readonly RunMember[];
  drops: readonly RunDrop[];
  charges: readonly BilledCharge[];
  now: Date;
}): RunLines {
  const { now } = input;
  const sections = new Map(input.sections.map((s) => [s.sectionId, s]));
  const billed = new Map(input.charges.map((c) => [pairKey(c.sectionId, c.userId), c]));
  const current = new Set(input.members.map((m) => pairKey(m.sectionId, m.userId)));
  const dropped = latestDrops(input.drops);
  const people = new Map<number, Person>();
  for (const person of [...input.drops, ...input.members]) people.set(person.userId, person);
  const lines: BillingLine[] = [];
  const missingCampusId: MissingCampusId[] = [];

  const waiting = input.sections
    .filter((s) => !billingOpen(s.addDropAt, now))
    .map((s) => ({
      sectionId: s.sectionId,
      courseCode: s.courseCode,
      sectionLabel: s.sectionLabel,
      deadline: s.addDropAt,
      timeZone: s.timeZone,
    }));

  const charge = (section: RunSection, person: Person, amountCents: number) => {
    const place = {
      sectionId: section.sectionId,
      courseCode: section.courseCode,
      sectionLabel: section.sectionLabel,
    };
    if (person.campusId === null || person.campusId === '') {
      missingCampusId.push({ ...person, ...place });
      return;
    }
    lines.push({
      kind: 'charge',
      ...place,
      userId: person.userId,
      campusId: person.campusId,
      name: person.name,
      email: person.email,
      amountCents,
      reversesChargeId: null,
      creditReason: null,
    });
  };

  // Charges: the students of a section past its deadline, still opted in at their own deadline.
  for (const member of input.members) {
    const section = sections.get(member.sectionId);
    if (!section || !billingOpen(section.addDropAt, now)) continue;
    if (!billingOpen(member.addDropDate, now)) continue;
    if (billed.has(pairKey(member.sectionId, member.userId))) continue;
    const amount = courseFeeChargeCents({ ...member, courseFeeCents: section.courseFeeCents });
    if (amount !== null) charge(section, member, amount);
  }
  // A drop after the add/drop period is not credited: the fee stays owed, billed if not yet.
  for (const [key, drop] of dropped) {
    if (current.has(key) || billed.has(key)) continue;
    const section = sections.get(drop.sectionId);
    if (!section || !billingOpen(section.addDropAt, now)) continue;
    const amount = dropStillChargedCents({
      member: { ...drop, courseFeeCents: section.courseFeeCents },
      droppedAt: drop.droppedAt,
      optOutDeadline: section.addDropAt,
      dropPeriodEnd: dropPeriodEnd(section),
    });
    if (amount !== null) charge(section, drop, amount);
  }

  // Credits: a billed charge the campus refunded, or whose student dropped within add/drop.
  for (const billedCharge of input.charges) {
    if (billedCharge.credited) continue;
    const section = sections.get(billedCharge.sectionId);
    if (!section) continue;
    const key = pairKey(billedCharge.sectionId, billedCharge.userId);
    const drop = current.has(key) ? undefined : dropped.get(key);
    const reason: BillingLine['creditReason'] = billedCharge.refunded
      ? 'refund'
      : drop && dropIsCredited({ droppedAt: drop.droppedAt, dropPeriodEnd: dropPeriodEnd(section) })
        ? 'drop'
        : null;
    if (reason === null) continue;
    lines.push({
      kind: 'credit',
      sectionId: section.sectionId,
      courseCode: section.courseCode,
      sectionLabel: section.sectionLabel,
      userId: billedCharge.userId,
      campusId: billedCharge.campusId,
      name: people.get(billedCharge.userId)?.name ?? '',
      email: people.get(billedCharge.userId)?.email ?? '',
      amountCents: -billedCharge.amountCents,
      reversesChargeId: billedCharge.chargeId,
      creditReason: reason,
    });
  }

  lines.sort(lineOrder);
  return { lines, waiting, missingCampusId };
}

/** One order for every file and preview: course, section, campus id, charges before credits. */
function lineOrder(a: BillingLine, b: BillingLine): number {
  return (
    a.courseCode.localeCompare(b.courseCode, 'en') ||
    a.sectionLabel.localeCompare(b.sectionLabel, 'en') ||
    a.sectionId - b.sectionId ||
    (a.campusId < b.campusId ? -1 : a.campusId > b.campusId ? 1 : 0) ||
    a.userId - b.userId ||
    (a.kind === b.kind ? 0 : a.kind === 'charge' ? -1 : 1)
  );
}

/** The totals a run records and a preview shows: the parts sum to the total. */
export function runTotals(lines: readonly BillingLine[]): {
  chargeCount: number;
  creditCount: number;
  chargedCents: number;
  creditedCents: number;
  totalCents: number;
} {
  let chargeCount = 0;
  let creditCount = 0;
  let chargedCents = 0;
  let creditedCents = 0;
  for (const line of lines) {
    if (line.kind === 'charge') {
      chargeCount += 1;
      chargedCents += line.amountCents;
    } else {
      creditCount += 1;
      creditedCents += line.amountCents;
    }
  }
  return {
    chargeCount,
    creditCount,
    chargedCents,
    creditedCents,
    totalCents: chargedCents + creditedCents,
  };
}

/**
 * What the preview showed, in a few characters: a final run made from other lines (someone
 * dropped, a campus id arrived) is refused, so staff finalise exactly what they reviewed.
 */
export function linesFingerprint(lines: readonly BillingLine[]): string {
  // FNV-1a over the lines' identities and amounts: stable, no crypto needed for a comparison.
  let hash = 0x811c9dc5;
  const text = lines
    .map(
      (l) =>
        `${l.kind}|${l.sectionId}|${l.userId}|${l.campusId}|${l.amountCents}|${l.reversesChargeId ?? ''}`,
    )
    .join('\n');
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${lines.length}-${hash.toString(16).padStart(8, '0')}`;
}
