import { describe, expect, it } from 'vitest';
import {
  checkCourse,
  checkSection,
  checkTerm,
  courseTypeHasFee,
  feeText,
  joinsOnCourseFee,
  materialReference,
  memberTerms,
  parseFeeCents,
  roleChangeEndsGrants,
  type SectionInput,
} from './section-rules.ts';

const section = (over: Partial<SectionInput> = {}): SectionInput => ({
  name: 'Principles of Biology',
  number: ' 003 ',
  termId: '',
  startDate: '2026-08-24',
  endDate: '2026-12-15',
  timeZone: 'America/Toronto',
  optOutDate: '2026-09-08',
  optOutTime: '23:59',
  dropDate: '',
  dropTime: '',
  optingMethod: 'opt-out',
  fee: '79.00',
  sectionCode: '',
  ...over,
});
const before = new Date('2026-08-01T12:00:00Z');
const facts = { courseType: 'inclusive_access' as const, now: before, current: null };

describe('issue 39: terms', () => {
  it('issue 39: a term starts on or before its end; the error is beside the end date', () => {
    const base = { title: ' Fall 2026 ', termType: 'semester' };
    expect(checkTerm({ ...base, startDate: '2026-08-24', endDate: '2026-12-15' })).toEqual({
      ok: true,
      value: {
        title: 'Fall 2026',
        termType: 'semester',
        startDate: '2026-08-24',
        endDate: '2026-12-15',
      },
    });
    expect(checkTerm({ ...base, startDate: '2026-08-24', endDate: '2026-08-24' }).ok).toBe(true);
    expect(checkTerm({ ...base, startDate: '2026-08-24', endDate: '2026-08-23' })).toEqual({
      ok: false,
      errors: { endDate: 'ops.courses.error.endBeforeStart' },
    });
  });

  it('issue 39: a blank title, an unknown type, an impossible date and a NUL byte are refused by field', () => {
    expect(
      checkTerm({ title: '  ', termType: 'quarter', startDate: '2026-02-30', endDate: 'soon' }),
    ).toEqual({
      ok: false,
      errors: {
        title: 'ops.courses.error.required',
        termType: 'ops.courses.error.choice',
        startDate: 'ops.courses.error.date',
        endDate: 'ops.courses.error.date',
      },
    });
    const nul = checkTerm({
      title: 'Fall\u0000',
      termType: 'term',
      startDate: '2026-08-24',
      endDate: '2026-12-15',
    });
    expect(nul).toEqual({ ok: false, errors: { title: 'ops.courses.error.characters' } });
    const long = checkTerm({
      title: 'x'.repeat(201),
      termType: 'term',
      startDate: '2026-08-24',
      endDate: '2026-12-15',
    });
    expect(long).toEqual({ ok: false, errors: { title: 'ops.courses.error.tooLong' } });
  });
});

describe('issue 39: courses and their types (decision 036)', () => {
  it('issue 39: a new course takes inclusive access, course fee or regular; the department is upper case', () => {
    expect(
      checkCourse({
        name: 'Principles of Biology',
        department: ' bio ',
        number: '101',
        courseType: 'course_fee',
      }),
    ).toEqual({
      ok: true,
      value: {
        name: 'Principles of Biology',
        department: 'BIO',
        number: '101',
        courseType: 'course_fee',
      },
    });
    for (const courseType of ['cds', 'student_choice', 'bogus']) {
      expect(checkCourse({ name: 'A', department: 'B', number: '1', courseType })).toEqual({
        ok: false,
        errors: { courseType: 'ops.courses.error.choice' },
      });
    }
  });

  it('issue 39: an existing CDS or student-choice course keeps its type when edited', () => {
    const kept = checkCourse(
      { name: 'Calculus I', department: 'MATH', number: '140', courseType: 'cds' },
      'cds',
    );
    expect(kept.ok).toBe(true);
  });

  it('issue 39: a fee only where the type has one: regular has none, every other type has one', () => {
    expect(courseTypeHasFee('lms_ecommerce')).toBe(false);
    for (const type of ['inclusive_access', 'course_fee', 'cds', 'student_choice'] as const) {
      expect(courseTypeHasFee(type)).toBe(true);
    }
  });

  it('spec 1 §1: students of a course-fee course join its one-fee program; instructors and other types do not', () => {
    expect(joinsOnCourseFee('course_fee', 'student')).toBe(true);
    expect(joinsOnCourseFee('course_fee', 'professor')).toBe(false);
    expect(joinsOnCourseFee('inclusive_access', 'student')).toBe(false);
  });

  it("issue 39: a role decides the member's course fee the same way on joining and on a role change; a professor or TA is never on it", () => {
    expect(memberTerms('course_fee', 'student')).toEqual({ role: 'student', isCourseFee: true });
    expect(memberTerms('course_fee', 'professor')).toEqual({
      role: 'professor',
      isCourseFee: false,
    });
    expect(memberTerms('course_fee', 'teaching_assistant').isCourseFee).toBe(false);
    expect(memberTerms('inclusive_access', 'student').isCourseFee).toBe(false);
    expect(memberTerms('lms_ecommerce', 'student').isCourseFee).toBe(false);
  });

  it('issue 39: moving between studying and teaching ends what the section gave; professor ↔ TA does not', () => {
    expect(roleChangeEndsGrants('student', 'professor')).toBe(true);
    expect(roleChangeEndsGrants('teaching_assistant', 'student')).toBe(true);
    expect(roleChangeEndsGrants('professor', 'teaching_assistant')).toBe(false);
    expect(roleChangeEndsGrants('student', 'student')).toBe(false);
  });
});

describe('issue 39: the course fee as typed', () => {
  it('issue 39: "79.00", "79", "79.5", "$1,250.00" are integer cents', () => {
    expect(parseFeeCents('79.00')).toEqual({ cents: 7900 });
    expect(parseFeeCents(' 79 ')).toEqual({ cents: 7900 });
    expect(parseFeeCents('79.5')).toEqual({ cents: 7950 });
    expect(parseFeeCents('$1,250.00')).toEqual({ cents: 125000 });
    expect(parseFeeCents('0')).toEqual({ cents: 0 });
    expect(parseFeeCents('10000.00')).toEqual({ cents: 1_000_000 });
  });

  it('issue 39: a fee typed the French way is read the same: decimal comma, spaced thousands, $ after', () => {
    expect(parseFeeCents('79,00')).toEqual({ cents: 7900 });
    expect(parseFeeCents('79,5')).toEqual({ cents: 7950 });
    expect(parseFeeCents('79,00 $')).toEqual({ cents: 7900 });
    expect(parseFeeCents('79,00 $ US')).toEqual({ cents: 7900 });
    expect(parseFeeCents('1 250,00')).toEqual({ cents: 125000 });
    expect(parseFeeCents('1\u202f250,50 $')).toEqual({ cents: 125050 });
    expect(parseFeeCents('1 250')).toEqual({ cents: 125000 });
    // Three digits after a comma group thousands, as before.
    expect(parseFeeCents('1,250')).toEqual({ cents: 125000 });
  });

  it('issue 39: blank, negative, three decimals, words and above 10,000.00 are refused', () => {
    expect(parseFeeCents('')).toEqual({ error: 'ops.courses.error.feeRequired' });
    expect(parseFeeCents('-5')).toEqual({ error: 'ops.courses.error.feeNegative' });
    expect(parseFeeCents('79.001')).toEqual({ error: 'ops.courses.error.feeFormat' });
    expect(parseFeeCents('79,0001')).toEqual({ error: 'ops.courses.error.feeFormat' });
    expect(parseFeeCents('1 25,00')).toEqual({ error: 'ops.courses.error.feeFormat' });
    expect(parseFeeCents('79,00,00')).toEqual({ error: 'ops.courses.error.feeFormat' });
    expect(parseFeeCents('1e3')).toEqual({ error: 'ops.courses.error.feeFormat' });
    expect(parseFeeCents('10000.01')).toEqual({ error: 'ops.courses.error.feeTooHigh' });
    expect(parseFeeCents('9'.repeat(40))).toEqual({ error: 'ops.courses.error.feeTooHigh' });
  });

  it('issue 39: the fee field shows cents back as typed: parse(feeText(c)) = c', () => {
    for (const cents of [0, 5, 7900, 7950, 125_001, 1_000_000]) {
      expect(parseFeeCents(feeText(cents))).toEqual({ cents });
      expect(parseFeeCents(feeText(cents, 'fr-CA'))).toEqual({ cents });
    }
    expect(feeText(null)).toBe('');
    // In the reader's own format: French writes the decimal comma its hints show.
    expect(feeText(7900, 'en')).toBe('79.00');
    expect(feeText(7900, 'fr-CA')).toBe('79,00');
  });
});

describe('issue 39: sections', () => {
  it('issue 39: deadlines typed on the course clock are stored as UTC; number and code are trimmed', () => {
    const checked = checkSection(section({ sectionCode: ' BIO-101 A ' }), facts);
    expect(checked).toEqual({
      ok: true,
      value: {
        name: 'Principles of Biology',
        number: '003',
        startDate: '2026-08-24',
        endDate: '2026-12-15',
        timeZone: 'America/Toronto',
        // 23:59 EDT is 03:59 UTC the next day.
        addDropAt: new Date('2026-09-09T03:59:00Z'),
        dropPeriodEndsAt: null,
        optingMethod: 'opt-out',
        courseFeeCents: 7900,
        sectionCode: 'BIO-101 A',
      },
    });
  });

  it('issue 39: a section ends on or after its start', () => {
    const checked = checkSection(section({ endDate: '2026-08-23' }), facts);
    expect(checked).toEqual({ ok: false, errors: { endDate: 'ops.courses.error.endBeforeStart' } });
  });

  it('issue 39 + spec 1 §2: the opt-out deadline falls from two weeks before class to its last day', () => {
    expect(checkSection(section({ optOutDate: '2026-08-10', optOutTime: '00:00' }), facts).ok).toBe(
      true,
    );
    expect(checkSection(section({ optOutDate: '2026-08-09', optOutTime: '23:59' }), facts)).toEqual(
      {
        ok: false,
        errors: { optOutDate: 'ops.courses.error.optOutTooEarly' },
      },
    );
    expect(checkSection(section({ optOutDate: '2026-12-15', optOutTime: '23:59' }), facts).ok).toBe(
      true,
    );
    expect(checkSection(section({ optOutDate: '2026-12-16', optOutTime: '00:00' }), facts)).toEqual(
      {
        ok: false,
        errors: { optOutDate: 'ops.courses.error.optOutAfterEnd' },
      },
    );
  });

  it('decision 036: a fee type requires the opt-out deadline; a blank one says so, not the date format', () => {
    expect(checkSection(section({ optOutDate: '' }), facts)).toEqual({
      ok: false,
      errors: { optOutDate: 'ops.courses.error.optOutRequired' },
    });
    expect(
      checkSection(section({ optOutDate: '', optOutTime: '' }), {
        ...facts,
        courseType: 'course_fee',
      }),
    ).toEqual({
      ok: false,
      errors: {
        optOutDate: 'ops.courses.error.optOutRequired',
        optOutTime: 'ops.courses.error.time',
      },
    });
    // Typed but not a date: the format.
    expect(checkSection(section({ optOutDate: '9/8/2026' }), facts)).toEqual({
      ok: false,
      errors: { optOutDate: 'ops.courses.error.date' },
    });
  });

  it('decision 036: a regular course is not asked a deadline (nobody opts out; students buy): it keeps the one on file, else its last day', () => {
    const regular = { ...facts, courseType: 'lms_ecommerce' as const };
    const blank = { optOutDate: '', optOutTime: '', fee: '' };
    const made = checkSection(section(blank), regular);
    // The end of its last day on its clock: 23:59 EST on Dec 15 is 04:59 UTC on the 16th.
    expect(made.ok && made.value.addDropAt).toEqual(new Date('2026-12-16T04:59:00Z'));
    const onFile = new Date('2026-09-09T03:59:00Z');
    const now = { addDropAt: onFile, dropPeriodEndsAt: null, courseFeeCents: null, billed: false };
    const kept = checkSection(section(blank), { ...regular, current: now });
    expect(kept.ok && kept.value.addDropAt).toEqual(onFile);
    // Dates moved past the one on file: the last day again, never an error beside a field
    // the form does not show.
    const moved = checkSection(
      section({ ...blank, startDate: '2026-10-01', endDate: '2026-12-15' }),
      {
        ...regular,
        current: now,
      },
    );
    expect(moved.ok && moved.value.addDropAt).toEqual(new Date('2026-12-16T04:59:00Z'));
    // One typed is checked as any deadline.
    expect(checkSection(section({ fee: '', optOutDate: '2026-12-16' }), regular)).toEqual({
      ok: false,
      errors: { optOutDate: 'ops.courses.error.optOutAfterEnd' },
    });
  });

  it('issue 39: the add/drop period ends at or after the opt-out deadline, by the last day', () => {
    const same = checkSection(section({ dropDate: '2026-09-08', dropTime: '23:59' }), facts);
    expect(same.ok && same.value.dropPeriodEndsAt).toEqual(new Date('2026-09-09T03:59:00Z'));
    expect(checkSection(section({ dropDate: '2026-09-08', dropTime: '23:58' }), facts)).toEqual({
      ok: false,
      errors: { dropDate: 'ops.courses.error.dropBeforeOptOut' },
    });
    expect(checkSection(section({ dropDate: '2026-12-16', dropTime: '09:00' }), facts)).toEqual({
      ok: false,
      errors: { dropDate: 'ops.courses.error.dropAfterEnd' },
    });
    expect(checkSection(section({ dropDate: '2026-09-20', dropTime: '' }), facts)).toEqual({
      ok: false,
      errors: { dropTime: 'ops.courses.error.time' },
    });
  });

  it('issue 39: an unknown zone, a bad time and a time the clocks skip are refused beside their field', () => {
    expect(checkSection(section({ timeZone: 'EST5' }), facts)).toEqual({
      ok: false,
      errors: { timeZone: 'ops.courses.error.timeZone' },
    });
    expect(checkSection(section({ optOutTime: '24:00' }), facts)).toEqual({
      ok: false,
      errors: { optOutTime: 'ops.courses.error.time' },
    });
    // Toronto's clocks go from 02:00 to 03:00 on 2027-03-14.
    const skipped = section({
      startDate: '2027-03-01',
      endDate: '2027-04-30',
      optOutDate: '2027-03-14',
      optOutTime: '02:30',
    });
    expect(checkSection(skipped, facts)).toEqual({
      ok: false,
      errors: { optOutTime: 'ops.courses.error.timeSkipped' },
    });
  });

  it('issue 39: a fee only where the type has one, and there it is required', () => {
    expect(checkSection(section({ fee: '' }), facts)).toEqual({
      ok: false,
      errors: { fee: 'ops.courses.error.feeRequired' },
    });
    const regular = { ...facts, courseType: 'lms_ecommerce' as const };
    expect(checkSection(section({ fee: '79.00' }), regular)).toEqual({
      ok: false,
      errors: { fee: 'ops.courses.error.feeNotForType' },
    });
    const none = checkSection(section({ fee: ' ' }), regular);
    expect(none.ok && none.value.courseFeeCents).toBeNull();
  });

  it('issue 39: once billing has charged the section, the fee and the deadline no longer change', () => {
    const current = {
      addDropAt: new Date('2026-09-09T03:59:00Z'),
      dropPeriodEndsAt: null,
      courseFeeCents: 7900,
      billed: true,
    };
    const after = { ...facts, now: new Date('2026-09-10T00:00:00Z'), current };
    expect(checkSection(section({ fee: '89.00' }), after)).toEqual({
      ok: false,
      errors: { fee: 'ops.courses.error.feeLocked' },
    });
    expect(checkSection(section({ optOutDate: '2026-09-15' }), after)).toEqual({
      ok: false,
      errors: { optOutDate: 'ops.courses.error.deadlineLocked' },
    });
    // The same values, and other fields, still save.
    expect(checkSection(section({ name: 'Biology I' }), after).ok).toBe(true);
    // Not billed yet — even past the deadline (a roster import's default one may already be):
    // staff can still put the fee and the deadline right.
    const unbilled = { ...after, current: { ...current, billed: false } };
    expect(checkSection(section({ fee: '89.00' }), unbilled).ok).toBe(true);
    expect(checkSection(section({ optOutDate: '2026-09-15' }), unbilled).ok).toBe(true);
  });

  it('issue 39: saving an unchanged form keeps the deadline on file to the second', () => {
    const current = {
      addDropAt: new Date('2026-09-09T03:59:59Z'),
      dropPeriodEndsAt: null,
      courseFeeCents: 7900,
      billed: false,
    };
    const checked = checkSection(section(), { ...facts, current });
    expect(checked.ok && checked.value.addDropAt).toEqual(current.addDropAt);
  });

  it('issue 39: codes are letters, digits, spaces and hyphens, at most 40; the number at most 20', () => {
    expect(checkSection(section({ sectionCode: 'BIO<script>' }), facts)).toEqual({
      ok: false,
      errors: { sectionCode: 'ops.courses.error.sectionCode' },
    });
    expect(
      checkSection(section({ sectionCode: 'A'.repeat(41), number: '1'.repeat(21) }), facts),
    ).toEqual({
      ok: false,
      errors: { sectionCode: 'ops.courses.error.tooLong', number: 'ops.courses.error.tooLong' },
    });
    expect(checkSection(section({ optingMethod: 'opt-in' }), facts)).toEqual({
      ok: false,
      errors: { optingMethod: 'ops.courses.error.choice' },
    });
  });
});

describe('issue 39: adopted materials are named by ISBN or product id', () => {
  it('issue 39: 13 digits or a valid ISBN-10 is an ISBN; other digits a product id; anything else nothing', () => {
    expect(materialReference('978-0-306-40615-7')).toEqual({
      kind: 'isbn',
      value: '9780306406157',
    });
    expect(materialReference('0-306-40615-2')).toEqual({ kind: 'isbn', value: '0306406152' });
    expect(materialReference('42')).toEqual({ kind: 'id', id: 42 });
    // A wrong check digit, and an id past the largest the database holds.
    expect(materialReference('0306406153')).toBeNull();
    expect(materialReference('9999999998')).toBeNull();
    expect(materialReference('0x10')).toBeNull();
    expect(materialReference('')).toBeNull();
  });
});
