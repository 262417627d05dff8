import { describe, expect, it } from 'vitest';
import { courseTypeChange, type SectionBeforeChange } from './course-type-change.ts';

// Issue 39: "a fee only where the type has one" (decision 036: every type but regular bills a
// course fee; spec 1 §1: a regular, LMS ecommerce course provisions nothing, students buy).
const feeSection = (over: Partial<SectionBeforeChange> = {}): SectionBeforeChange => ({
  id: 1,
  courseFeeCents: 7900,
  disableAutoProvisioning: false,
  billed: false,
  ...over,
});
const regularSection = (over: Partial<SectionBeforeChange> = {}): SectionBeforeChange => ({
  id: 2,
  courseFeeCents: null,
  disableAutoProvisioning: true,
  billed: false,
  ...over,
});

describe('issue 39: a course type change and its running sections', () => {
  it('issue 39, a fee only where the type has one: made regular, each running section loses its fee and provisions nothing', () => {
    expect(
      courseTypeChange({
        from: 'inclusive_access',
        to: 'lms_ecommerce',
        sectionFee: '',
        running: [feeSection({ id: 1 }), feeSection({ id: 3, courseFeeCents: 0 })],
      }),
    ).toEqual({
      ok: true,
      changes: [
        {
          id: 1,
          before: { courseFeeCents: 7900, provisionsMaterials: true },
          after: { courseFeeCents: null, provisionsMaterials: false },
        },
        {
          id: 3,
          before: { courseFeeCents: 0, provisionsMaterials: true },
          after: { courseFeeCents: null, provisionsMaterials: false },
        },
      ],
    });
  });

  it('issue 39: made inclusive access or course fee, each running section without a fee takes the section fee typed, in English or French', () => {
    for (const [typed, cents] of [
      ['79.00', 7900],
      ['79,00', 7900],
      ['1 250,00 $', 125000],
      ['1,250.00', 125000],
    ] as const) {
      expect(
        courseTypeChange({
          from: 'lms_ecommerce',
          to: 'inclusive_access',
          sectionFee: typed,
          running: [regularSection()],
        }),
      ).toEqual({
        ok: true,
        changes: [
          {
            id: 2,
            before: { courseFeeCents: null, provisionsMaterials: false },
            after: { courseFeeCents: cents, provisionsMaterials: true },
          },
        ],
      });
    }
  });

  it('issue 39: a section that has a fee keeps it; only those without one take the section fee', () => {
    const change = courseTypeChange({
      from: 'lms_ecommerce',
      to: 'course_fee',
      sectionFee: '50',
      running: [regularSection({ id: 2 }), feeSection({ id: 4, disableAutoProvisioning: true })],
    });
    expect(change.ok && change.changes.map((c) => [c.id, c.after.courseFeeCents])).toEqual([
      [2, 5000],
      [4, 7900],
    ]);
  });

  it('issue 39: the section fee is required when a running section has none, and refused beside its field when malformed', () => {
    const to = (sectionFee: string) =>
      courseTypeChange({
        from: 'lms_ecommerce',
        to: 'course_fee',
        sectionFee,
        running: [regularSection()],
      });
    expect(to('  ')).toEqual({
      ok: false,
      errors: { sectionFee: 'ops.courses.error.sectionFeeRequired' },
    });
    expect(to('lots')).toEqual({
      ok: false,
      errors: { sectionFee: 'ops.courses.error.feeFormat' },
    });
    expect(to('-5')).toEqual({
      ok: false,
      errors: { sectionFee: 'ops.courses.error.feeNegative' },
    });
    expect(to('20000')).toEqual({
      ok: false,
      errors: { sectionFee: 'ops.courses.error.feeTooHigh' },
    });
  });

  it('issue 39: a section fee typed where nothing takes it is refused beside it, not ignored', () => {
    // Made regular: a regular course has no fee.
    expect(
      courseTypeChange({
        from: 'inclusive_access',
        to: 'lms_ecommerce',
        sectionFee: '79.00',
        running: [feeSection()],
      }),
    ).toEqual({ ok: false, errors: { sectionFee: 'ops.courses.error.feeNotForType' } });
    // The type unchanged, or every running section already has a fee.
    for (const [from, to] of [
      ['inclusive_access', 'inclusive_access'],
      ['inclusive_access', 'course_fee'],
    ] as const) {
      expect(courseTypeChange({ from, to, sectionFee: '79.00', running: [feeSection()] })).toEqual({
        ok: false,
        errors: { sectionFee: 'ops.courses.error.sectionFeeUnused' },
      });
    }
  });

  it('issue 39: between two fee types, or with no running section, nothing changes on the sections', () => {
    expect(
      courseTypeChange({
        from: 'inclusive_access',
        to: 'course_fee',
        sectionFee: '',
        running: [feeSection()],
      }),
    ).toEqual({ ok: true, changes: [] });
    expect(
      courseTypeChange({ from: 'lms_ecommerce', to: 'course_fee', sectionFee: '', running: [] }),
    ).toEqual({ ok: true, changes: [] });
  });

  it('issue 39: once billing has charged a section its fee stays, so the course cannot become regular; the refusal is beside the type', () => {
    expect(
      courseTypeChange({
        from: 'course_fee',
        to: 'lms_ecommerce',
        sectionFee: '',
        running: [feeSection({ id: 1 }), feeSection({ id: 5, billed: true })],
      }),
    ).toEqual({ ok: false, errors: { courseType: 'ops.courses.error.typeBilled' } });
    // A billed section whose fee the change leaves alone does not stop it.
    expect(
      courseTypeChange({
        from: 'course_fee',
        to: 'inclusive_access',
        sectionFee: '',
        running: [feeSection({ billed: true })],
      }),
    ).toEqual({ ok: true, changes: [] });
  });

  it('issue 39 invariant: after any allowed change, every changed section has a fee exactly when the new type has one', () => {
    const running = [regularSection({ id: 1 }), feeSection({ id: 2 }), regularSection({ id: 3 })];
    for (const from of ['inclusive_access', 'course_fee', 'lms_ecommerce'] as const) {
      for (const to of ['inclusive_access', 'course_fee', 'lms_ecommerce'] as const) {
        if (from === to) continue;
        const change = courseTypeChange({
          from,
          to,
          sectionFee: to === 'lms_ecommerce' ? '' : '12.34',
          running,
        });
        if (!change.ok) throw new Error(`${from} → ${to}: ${JSON.stringify(change.errors)}`);
        const after = new Map(running.map((s) => [s.id, s.courseFeeCents]));
        for (const c of change.changes) after.set(c.id, c.after.courseFeeCents);
        for (const fee of after.values()) expect(fee !== null).toBe(to !== 'lms_ecommerce');
      }
    }
  });
});
