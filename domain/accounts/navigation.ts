// The user menu of spec 1 §2 / spec 2 §2 (Navbar and footer): groups of items, each gated by
// the account flags of spec 1 §3 (Login.navigationInfo). Pages behind these items check the
// same gate on the server through `canOpenMenuItem`.

export type NavigationFlags = {
  isClassroomInstructor: boolean;
  isDashboardEnabled: boolean;
  isCampusInsightsEnabled: boolean;
  hasAccessToCampusTools: boolean;
  isCourseManagerEnabled: boolean;
  hasAccessToBsmProductRequests: boolean;
  hasAccessToPubProductRequests: boolean;
  isPostingEnabled: boolean;
  isManager: boolean;
  isImpersonating: boolean;
  hasAccessToMyUsers: boolean;
  isSamplesEnabled: boolean;
  isAnalyticsEnabled: boolean;
  hasAccessToClaimCodeChecker: boolean;
  isBookstoreManager: boolean;
  /** The My Shelf feature for this user on this site. */
  myShelfEnabled: boolean;
  /** The request is on a white-label site. */
  onWhiteLabel: boolean;
};

export type MenuGroupId =
  | 'account'
  | 'manage'
  | 'impersonating'
  | 'admin'
  | 'claimCode'
  | 'bookstoreManager';

export type MenuItemId =
  | 'myShelf'
  | 'myAccount'
  | 'inclusiveDashboard'
  | 'campusInsights'
  | 'myCourses'
  | 'myClassrooms'
  | 'support'
  | 'adopt'
  | 'courseManager'
  | 'productRequestsBookstore'
  | 'productRequestsPublisher'
  | 'myCatalog'
  | 'mySales'
  | 'users'
  | 'myUsers'
  | 'mySamples'
  | 'myInventory'
  | 'courseAdmin'
  | 'myAnalytics'
  | 'switchAccount'
  | 'admin'
  | 'claimCodeChecker'
  | 'skuLookup';

type MenuItemRule = {
  id: MenuItemId;
  group: MenuGroupId;
  /** Null: the site's own link (Support), filled in by the adapter. */
  path: string | null;
  visible: (f: NavigationFlags) => boolean;
};

const always = () => true;

/**
 * Issue 39: the term's figures (Inclusive Dashboard, Campus Insights) are the campus staff's:
 * a manager, or a bookstore manager, who may open each section's opt-status download
 * (courses/section-access.ts); the site turns the tools on, the account's role lets them in.
 */
const seesCampusFigures = (f: NavigationFlags) => f.isManager || f.isBookstoreManager;

const MENU: readonly MenuItemRule[] = [
  { id: 'myShelf', group: 'account', path: '/shelf', visible: (f) => f.myShelfEnabled },
  { id: 'myAccount', group: 'account', path: '/account', visible: always },
  {
    id: 'inclusiveDashboard',
    group: 'account',
    path: '/manage/inclusive-dashboard',
    visible: (f) => f.onWhiteLabel && f.isDashboardEnabled && seesCampusFigures(f),
  },
  {
    id: 'campusInsights',
    group: 'account',
    path: '/manage/campus-insights',
    visible: (f) => f.onWhiteLabel && f.isCampusInsightsEnabled && seesCampusFigures(f),
  },
  {
    id: 'myCourses',
    group: 'account',
    path: '/library/',
    visible: (f) => !f.onWhiteLabel && !f.myShelfEnabled,
  },
  {
    id: 'myClassrooms',
    group: 'account',
    path: '/manage/my-classrooms',
    visible: (f) => f.isClassroomInstructor,
  },
  { id: 'support', group: 'account', path: null, visible: always },
  { id: 'adopt', group: 'manage', path: '/manage/adopt', visible: (f) => f.hasAccessToCampusTools },
  {
    id: 'courseManager',
    group: 'manage',
    path: '/manage/course-manager',
    visible: (f) => f.isCourseManagerEnabled,
  },
  {
    id: 'productRequestsBookstore',
    group: 'manage',
    path: '/manage/product-requests',
    visible: (f) => f.hasAccessToBsmProductRequests,
  },
  {
    id: 'productRequestsPublisher',
    group: 'manage',
    path: '/manage/publisher-product-requests',
    visible: (f) => f.hasAccessToPubProductRequests && !f.hasAccessToBsmProductRequests,
  },
  {
    id: 'myCatalog',
    group: 'manage',
    path: '/manage/my-catalog',
    visible: (f) => f.isPostingEnabled,
  },
  { id: 'mySales', group: 'manage', path: '/manage/my-sales', visible: (f) => f.isPostingEnabled },
  {
    id: 'users',
    group: 'manage',
    path: '/manage/users',
    visible: (f) => f.isPostingEnabled && f.isManager,
  },
  {
    id: 'myUsers',
    group: 'manage',
    path: '/manage/my-users',
    visible: (f) => !(f.isPostingEnabled && f.isManager) && f.hasAccessToMyUsers,
  },
  {
    id: 'mySamples',
    group: 'manage',
    path: '/manage/my-samples',
    visible: (f) => f.isSamplesEnabled,
  },
  {
    id: 'myInventory',
    group: 'manage',
    path: '/manage/my-inventory',
    visible: (f) => f.isPostingEnabled && (f.isManager || f.isImpersonating),
  },
  {
    id: 'courseAdmin',
    group: 'manage',
    path: '/manage/course-admin',
    visible: (f) => f.isPostingEnabled && (f.isManager || f.isImpersonating),
  },
  {
    id: 'myAnalytics',
    group: 'manage',
    path: '/manage/my-analytics',
    visible: (f) => f.isAnalyticsEnabled,
  },
  {
    id: 'switchAccount',
    group: 'impersonating',
    path: '/manage/switch-account',
    visible: (f) => f.isImpersonating,
  },
  { id: 'admin', group: 'admin', path: '/manage/admin', visible: (f) => f.isManager },
  {
    id: 'claimCodeChecker',
    group: 'claimCode',
    path: '/manage/claim-code-checker',
    visible: (f) => f.hasAccessToClaimCodeChecker,
  },
  {
    id: 'skuLookup',
    group: 'bookstoreManager',
    path: '/manage/sku-lookup',
    visible: (f) => f.isManager || f.isBookstoreManager,
  },
];

export const MENU_GROUP_ORDER: readonly MenuGroupId[] = [
  'account',
  'manage',
  'impersonating',
  'admin',
  'claimCode',
  'bookstoreManager',
];

export type MenuGroup = { id: MenuGroupId; items: { id: MenuItemId; path: string | null }[] };

/** The user dropdown's groups; a group with no visible item is left out (spec 1 §2). */
export function userMenuGroups(flags: NavigationFlags): MenuGroup[] {
  return MENU_GROUP_ORDER.map((group) => ({
    id: group,
    items: MENU.filter((item) => item.group === group && item.visible(flags)).map(
      ({ id, path }) => ({ id, path }),
    ),
  })).filter((group) => group.items.length > 0);
}

/** The tool page behind a menu item opens only for those the menu shows it to. */
export function menuItemForPath(path: string): MenuItemId | null {
  return MENU.find((item) => item.path === path)?.id ?? null;
}

export function canOpenMenuItem(flags: NavigationFlags, id: MenuItemId): boolean {
  return MENU.find((item) => item.id === id)?.visible(flags) ?? false;
}
