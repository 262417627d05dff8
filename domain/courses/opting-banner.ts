import {
  courtesyAccess,
  daysLeft,
  deadlineDay,
  isBeforeDeadline,
  type OptingMember,
  type OptingOrg,
  type OptingSection,
  optingEligibility,
} from './opting.ts';

// The opting banner of the course section page (spec 1 §2 Course section page, §4 Opting
// banner messages; spec 2 §8 Opt messages): which message, with what days and deadline.

export type OptingBanner =
  /** 'You are currently opted in/out. You have {n} day(s) to ...', with Opt Out / Opt In. */
  | { kind: 'standard'; optStatus: 'opted_in' | 'opted_out'; daysLeft: number; deadline: string }
  /** The custom bookstore-partner organisation: its own texts and 'Go To My Bookstore'. */
  | {
      kind: 'partner';
      message: 'optedIn' | 'optedOut' | 'optedOutClosed';
      daysLeft: number;
      deadline: string;
      /** Before the deadline the button opens the bookstore panel; after it, text only. */
      open: boolean;
    };

export function optingBanner(input: {
  member: OptingMember;
  section: OptingSection & { timeZone: string };
  org: OptingOrg;
  now: Date;
}): OptingBanner | null {
  const { member, section, org, now } = input;
  if (!optingEligibility(member, section)) return null;
  const open = isBeforeDeadline(member.addDropDate, now);
  const days = Math.max(0, daysLeft(member.addDropDate, now));
  const deadline = deadlineDay(member.addDropDate, section.timeZone);
  if (org.isBookstorePartner) {
    if (member.optStatus === 'opted_out') {
      return {
        kind: 'partner',
        message: open ? 'optedOut' : 'optedOutClosed',
        daysLeft: days,
        deadline,
        open,
      };
    }
    // Courtesy access until the add/drop date; after it the campus store bills the account.
    const courtesy = courtesyAccess({
      isCdsEnabled: org.isCdsEnabled,
      disableAutoProvisioning: section.disableAutoProvisioning,
      optStatus: member.optStatus,
    });
    return open && courtesy
      ? { kind: 'partner', message: 'optedIn', daysLeft: days, deadline, open }
      : null;
  }
  // After the deadline there is nothing left to choose: no banner, no button (spec 2 §4).
  if (!open) return null;
  return { kind: 'standard', optStatus: member.optStatus, daysLeft: days, deadline };
}
