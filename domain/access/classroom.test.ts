import { describe, expect, it } from 'vitest';
import { classroomAccess, classroomDoor, teachesClassroom } from './classroom.ts';

describe('classroom access (spec 1 §4 Classroom redeem prompt; spec 2 §4 Classroom)', () => {
  it('an owner without a confirmed code is prompted and may not enter yet', () => {
    expect(
      classroomAccess({
        owned: true,
        isSectionCodeConfirmed: false,
        classroomSectionId: null,
        instructorSectionId: null,
      }),
    ).toEqual({ promptForCode: true, canEnter: false, sectionId: null, asInstructor: false });
  });

  it('a student needs both the confirmed code and the section id', () => {
    expect(
      classroomAccess({
        owned: true,
        isSectionCodeConfirmed: true,
        classroomSectionId: null,
        instructorSectionId: null,
      }).canEnter,
    ).toBe(false);
    expect(
      classroomAccess({
        owned: true,
        isSectionCodeConfirmed: true,
        classroomSectionId: 7,
        instructorSectionId: null,
      }),
    ).toEqual({ promptForCode: false, canEnter: true, sectionId: 7, asInstructor: false });
  });

  it('an instructor enters without a code and is never prompted', () => {
    expect(
      classroomAccess({
        owned: true,
        isSectionCodeConfirmed: false,
        classroomSectionId: null,
        instructorSectionId: 3,
      }),
    ).toEqual({ promptForCode: false, canEnter: true, sectionId: 3, asInstructor: true });
  });

  it('someone who does not own it is neither prompted nor let in', () => {
    expect(
      classroomAccess({
        owned: false,
        isSectionCodeConfirmed: false,
        classroomSectionId: null,
        instructorSectionId: null,
      }),
    ).toEqual({ promptForCode: false, canEnter: false, sectionId: null, asInstructor: false });
  });
});

describe('who teaches a classroom (spec 1 §6 Roles)', () => {
  it('"Classroom instructors may enter the classroom without a confirmed section code": the professor, the teaching assistant and a marked classroom instructor', () => {
    expect(teachesClassroom({ role: 'professor', isClassroomInstructor: false })).toBe(true);
    expect(teachesClassroom({ role: 'teaching_assistant', isClassroomInstructor: false })).toBe(
      true,
    );
    expect(teachesClassroom({ role: 'student', isClassroomInstructor: true })).toBe(true);
  });

  it('a student does not', () => {
    expect(teachesClassroom({ role: 'student', isClassroomInstructor: false })).toBe(false);
  });
});

describe('the door of a section’s classroom (spec 2 §4 Classroom: section/{id}?type=instructor or student)', () => {
  const base = {
    sectionId: 7,
    asked: null,
    teachesSection: false,
    owned: false,
    isSectionCodeConfirmed: false,
    classroomSectionId: null,
  } as const;

  it('"Instructors may enter without confirmation": the instructor view, owned or not', () => {
    expect(classroomDoor({ ...base, teachesSection: true })).toEqual({
      kind: 'enter',
      view: 'instructor',
    });
    expect(classroomDoor({ ...base, teachesSection: true, asked: 'instructor' })).toEqual({
      kind: 'enter',
      view: 'instructor',
    });
  });

  it('an instructor who asks for the student view sees it', () => {
    expect(classroomDoor({ ...base, teachesSection: true, asked: 'student' })).toEqual({
      kind: 'enter',
      view: 'student',
    });
  });

  it('"students need a confirmed code and section id": the student view of that section', () => {
    const student = { ...base, owned: true, isSectionCodeConfirmed: true, classroomSectionId: 7 };
    expect(classroomDoor(student)).toEqual({ kind: 'enter', view: 'student' });
  });

  it('a student who asks for the instructor view gets the student view, never the instructor’s', () => {
    const student = { ...base, owned: true, isSectionCodeConfirmed: true, classroomSectionId: 7 };
    expect(classroomDoor({ ...student, asked: 'instructor' })).toEqual({
      kind: 'enter',
      view: 'student',
    });
  });

  it('an owner without a confirmed code gets the section-code prompt (spec 1 §4 Classroom redeem prompt)', () => {
    expect(classroomDoor({ ...base, owned: true })).toEqual({ kind: 'prompt' });
    expect(classroomDoor({ ...base, owned: true, isSectionCodeConfirmed: true })).toEqual({
      kind: 'prompt',
    });
  });

  it('a student confirmed for another section is refused with that reason', () => {
    expect(
      classroomDoor({ ...base, owned: true, isSectionCodeConfirmed: true, classroomSectionId: 8 }),
    ).toEqual({ kind: 'refused', reason: 'classroom.refused.otherSection' });
  });

  it('someone who neither teaches nor owns it is refused with that reason', () => {
    expect(classroomDoor(base)).toEqual({ kind: 'refused', reason: 'classroom.refused.notOwned' });
    expect(classroomDoor({ ...base, asked: 'instructor' })).toEqual({
      kind: 'refused',
      reason: 'classroom.refused.notOwned',
    });
  });
});
