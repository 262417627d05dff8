import { describe, expect, it } from 'vitest';
import { classroomAccess } from './classroom.ts';

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
