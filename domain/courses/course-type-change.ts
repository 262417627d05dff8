import {
  type CourseType,
  courseTypeHasFee,
  type FieldErrors,
  parseFeeCents,
  provisionsMaterials,
} from './section-rules.ts';

// Issue 39, "a fee only where the type has one": a course's type decides whether its sections
// bill a course fee (decision 036: all types but regular) and whether they provision materials
// (spec 1 §1: a regular, LMS ecommerce course's students buy). When staff change the type,
// its running sections follow in the same save: made regular, they lose their fee; made a fee
// type, those without one take the section fee staff type beside the type. A section billing
// has charged keeps the fee its students were billed (section-rules.ts, checkSection), so a
// change that would alter it is refused. Ended sections keep what they had: they are history.

/** A running section of the course, as the change needs it. */
export type SectionBeforeChange = {
  id: number;
  courseFeeCents: number | null;
  disableAutoProvisioning: boolean;
  /** A billing run has charged this section's students (billing_charges). */
  billed: boolean;
};

/** What the change does to one section (only the fields the course type decides). */
export type SectionTypeFields = { courseFeeCents: number | null; provisionsMaterials: boolean };
export type SectionChange = { id: number; before: SectionTypeFields; after: SectionTypeFields };

export type CourseTypeChangeFields = 'courseType' | 'sectionFee';

const fieldsOf = (s: SectionBeforeChange): SectionTypeFields => ({
  courseFeeCents: s.courseFeeCents,
  provisionsMaterials: !s.disableAutoProvisioning,
});

/**
 * What changing the course from one type to another does to each of its running sections, or
 * why it cannot, beside the field to put right: the course type (a billed section would lose
 * its fee) or the section fee (needed and missing or malformed; typed where nothing takes it).
 */
export function courseTypeChange(input: {
  from: CourseType;
  to: CourseType;
  /** The section fee as typed in the course form (blank when none is given). */
  sectionFee: string;
  running: readonly SectionBeforeChange[];
}):
  | { ok: true; changes: SectionChange[] }
  | { ok: false; errors: FieldErrors<CourseTypeChangeFields> } {
  const { to, running } = input;
  const typed = input.sectionFee.trim() !== '';
  const hasFee = courseTypeHasFee(to);
  const needFee = input.from !== to && hasFee && running.some((s) => s.courseFeeCents === null);
  if (!needFee && typed) {
    return {
      ok: false,
      errors: {
        sectionFee: hasFee
          ? 'ops.courses.error.sectionFeeUnused'
          : 'ops.courses.error.feeNotForType',
      },
    };
  }
  if (input.from === to) return { ok: true, changes: [] };

  let fee: number | null = null;
  if (needFee) {
    const parsed = parseFeeCents(input.sectionFee);
    if ('error' in parsed) {
      const error =
        parsed.error === 'ops.courses.error.feeRequired'
          ? 'ops.courses.error.sectionFeeRequired'
          : parsed.error;
      return { ok: false, errors: { sectionFee: error } };
    }
    fee = parsed.cents;
  }

  const changes: SectionChange[] = [];
  for (const section of running) {
    const before = fieldsOf(section);
    const after: SectionTypeFields = {
      // Regular: no fee. A fee type: the section's own fee, or the one typed if it has none.
      courseFeeCents: hasFee ? (section.courseFeeCents ?? fee) : null,
      provisionsMaterials: provisionsMaterials(to),
    };
    if (
      before.courseFeeCents === after.courseFeeCents &&
      before.provisionsMaterials === after.provisionsMaterials
    ) {
      continue;
    }
    if (section.billed && before.courseFeeCents !== after.courseFeeCents) {
      return { ok: false, errors: { courseType: 'ops.courses.error.typeBilled' } };
    }
    changes.push({ id: section.id, before, after });
  }
  return { ok: true, changes };
}
