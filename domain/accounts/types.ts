import type { NavigationFlags } from './navigation.ts';

export type SessionUser = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  languageCode: string | null;
  timeZone: string;
  mustAcceptEula: boolean;
  /** Issue 20: the address is proved (email-verification.ts). */
  emailVerified: boolean;
  orgId: number | null;
  /** The user's own organisation's buying flags (the navbar cart on the main site). */
  org: { isRetailer: boolean; buysOnPartnerSite: boolean } | null;
  roles: string[];
  isImpersonating: boolean;
  /** Issue 39: the manager acting as this user through Switch Account; null otherwise. */
  impersonatorId?: number | null;
  /** Issue 39: that manager as the audit names them ('Alex Morgan <manager@demo.test>'). */
  impersonatorLabel?: string | null;
  /** Issue 39: that manager's own language choice (null: none stored); pages read in it. */
  impersonatorLanguage?: string | null;
  flags: Omit<NavigationFlags, 'onWhiteLabel' | 'isDashboardEnabled' | 'isCampusInsightsEnabled'>;
};

export type LoginOutcome =
  | { ok: true; userId: number }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterMinutes: number };
