import { describe, expect, it } from 'vitest';
import { canOpenMenuItem, type NavigationFlags, userMenuGroups } from './navigation.ts';

const noFlags: NavigationFlags = {
  isClassroomInstructor: false,
  isDashboardEnabled: false,
  isCampusInsightsEnabled: false,
  hasAccessToCampusTools: false,
  isCourseManagerEnabled: false,
  hasAccessToBsmProductRequests: false,
  hasAccessToPubProductRequests: false,
  isPostingEnabled: false,
  isManager: false,
  isImpersonating: false,
  hasAccessToMyUsers: false,
  isSamplesEnabled: false,
  isAnalyticsEnabled: false,
  hasAccessToClaimCodeChecker: false,
  isBookstoreManager: false,
  myShelfEnabled: true,
  onWhiteLabel: false,
};

const flags = (overrides: Partial<NavigationFlags>) => ({ ...noFlags, ...overrides });
const itemIds = (f: NavigationFlags) => userMenuGroups(f).flatMap((g) => g.items.map((i) => i.id));
const groupIds = (f: NavigationFlags) => userMenuGroups(f).map((g) => g.id);

describe('user menu (spec 1 §2 Navbar and footer)', () => {
  it('a student sees only the Account group: My Shelf, My Account, Support', () => {
    expect(groupIds(noFlags)).toEqual(['account']);
    expect(itemIds(noFlags)).toEqual(['myShelf', 'myAccount', 'support']);
  });

  it('users without the My Shelf feature get My Courses instead of My Shelf', () => {
    expect(itemIds(flags({ myShelfEnabled: false }))).toEqual([
      'myAccount',
      'myCourses',
      'support',
    ]);
  });

  it('white-label items are Inclusive Dashboard and Campus Insights Beta, each by its flag', () => {
    const f = flags({
      isBookstoreManager: true,
      onWhiteLabel: true,
      isDashboardEnabled: true,
      isCampusInsightsEnabled: true,
    });
    expect(itemIds(f)).toEqual([
      'myShelf',
      'myAccount',
      'inclusiveDashboard',
      'campusInsights',
      'support',
      'skuLookup',
    ]);
    expect(
      itemIds(flags({ isManager: true, onWhiteLabel: true, isDashboardEnabled: true })),
    ).not.toContain('campusInsights');
  });

  it('issue 39: the term dashboards are for managers and bookstore managers, not students', () => {
    const site = { onWhiteLabel: true, isDashboardEnabled: true, isCampusInsightsEnabled: true };
    expect(itemIds(flags(site))).not.toContain('inclusiveDashboard');
    expect(itemIds(flags(site))).not.toContain('campusInsights');
    expect(itemIds(flags({ ...site, isManager: true }))).toContain('inclusiveDashboard');
    expect(itemIds(flags({ ...site, isBookstoreManager: true }))).toContain('campusInsights');
  });

  it('My Classrooms is for classroom instructors', () => {
    expect(itemIds(flags({ isClassroomInstructor: true }))).toContain('myClassrooms');
  });

  it('posting-enabled managers get Users, My Inventory and Course Admin; others My Users', () => {
    const manager = itemIds(
      flags({ isPostingEnabled: true, isManager: true, hasAccessToMyUsers: true }),
    );
    expect(manager).toEqual(
      expect.arrayContaining(['users', 'myCatalog', 'mySales', 'myInventory', 'courseAdmin']),
    );
    expect(manager).not.toContain('myUsers');
    const poster = itemIds(flags({ isPostingEnabled: true, hasAccessToMyUsers: true }));
    expect(poster).toContain('myUsers');
    expect(poster).not.toContain('myInventory');
  });

  it('impersonating posting users get My Inventory, Course Admin and Switch Account', () => {
    const f = flags({ isPostingEnabled: true, isImpersonating: true });
    expect(itemIds(f)).toEqual(
      expect.arrayContaining(['myInventory', 'courseAdmin', 'switchAccount']),
    );
    expect(groupIds(f)).toContain('impersonating');
  });

  it('Admin for managers; SKU Lookup for managers and bookstore managers', () => {
    expect(groupIds(flags({ isManager: true }))).toEqual(['account', 'admin', 'bookstoreManager']);
    expect(groupIds(flags({ isBookstoreManager: true }))).toEqual(['account', 'bookstoreManager']);
  });

  it('Claim Code Checker for users with access', () => {
    expect(groupIds(flags({ hasAccessToClaimCodeChecker: true }))).toContain('claimCode');
  });

  it('a page behind a menu item opens only when the menu shows it', () => {
    expect(canOpenMenuItem(noFlags, 'admin')).toBe(false);
    expect(canOpenMenuItem(flags({ isManager: true }), 'admin')).toBe(true);
  });
});
