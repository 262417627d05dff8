import { describe, expect, it } from 'vitest';
import { translate } from '#i18n/translate.ts';
import { roleNames } from './role-names.ts';

// Spec 2 §6 roles; issue 38: My Account names roles in words, and an instructor is not "Student".
describe('the roles My Account names', () => {
  it('an instructor is an instructor, not a student', () => {
    expect(roleNames({ accountRoles: [], sectionRoles: ['professor'] })).toEqual([
      'role.instructor',
    ]);
    expect(
      roleNames({ accountRoles: [], sectionRoles: ['teaching_assistant', 'student'] }),
    ).toEqual(['role.teachingAssistant', 'role.student']);
  });

  it('the store’s roles in words, first, each once; a key it does not know is never shown', () => {
    expect(
      roleNames({
        accountRoles: ['bookstore_manager', 'manager', 'publisher_beta'],
        sectionRoles: ['professor', 'professor'],
      }),
    ).toEqual(['role.bookstoreManager', 'role.manager', 'role.instructor']);
  });

  it('someone with no role anywhere is a student', () => {
    expect(roleNames({ accountRoles: [], sectionRoles: [] })).toEqual(['role.student']);
    expect(roleNames({ accountRoles: ['unknown'], sectionRoles: ['observer'] })).toEqual([
      'role.student',
    ]);
  });

  it('in both languages', () => {
    expect(translate('en', 'role.bookstoreManager')).toBe('Bookstore manager');
    expect(translate('en', 'role.instructor')).toBe('Instructor');
    expect(translate('fr-CA', 'role.instructor')).toBe('Enseignant');
    expect(translate('fr-CA', 'role.bookstoreManager')).toBe('Gérant de librairie');
  });
});
