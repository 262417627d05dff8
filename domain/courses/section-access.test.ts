import { describe, expect, it } from 'vitest';
import { canManageSection, usesSectionTools } from './section-access.ts';

describe('canManageSection (issue 6 opt-status download, issue 20 section places)', () => {
  it('issue 20: a manager manages every section, of any organisation', () => {
    expect(canManageSection({ roles: ['manager'], orgId: null }, 7)).toBe(true);
    expect(canManageSection({ roles: ['manager'], orgId: 3 }, 7)).toBe(true);
  });

  it("issue 20: a bookstore manager manages their own organisation's sections only", () => {
    expect(canManageSection({ roles: ['bookstore_manager'], orgId: 7 }, 7)).toBe(true);
    expect(canManageSection({ roles: ['bookstore_manager'], orgId: 8 }, 7)).toBe(false);
    expect(canManageSection({ roles: ['bookstore_manager'], orgId: null }, 7)).toBe(false);
  });

  it('issue 20: students, instructors, publishers, admins and anonymous visitors do not', () => {
    expect(canManageSection({ roles: [], orgId: 7 }, 7)).toBe(false);
    expect(canManageSection({ roles: ['publisher', 'admin'], orgId: 7 }, 7)).toBe(false);
    expect(canManageSection(null, 7)).toBe(false);
  });

  it('issue 39: managers and bookstore managers use the tools (another campus is then not found); nobody else does', () => {
    expect(usesSectionTools({ roles: ['manager'], orgId: null })).toBe(true);
    expect(usesSectionTools({ roles: ['bookstore_manager'], orgId: 8 })).toBe(true);
    expect(usesSectionTools({ roles: ['bookstore_manager'], orgId: null })).toBe(true);
    expect(usesSectionTools({ roles: ['support', 'course_manager'], orgId: 7 })).toBe(false);
    expect(usesSectionTools({ roles: [], orgId: 7 })).toBe(false);
    expect(usesSectionTools(null)).toBe(false);
  });
});
