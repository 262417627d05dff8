import { type RecentFailures, type ThrottleDecision, throttle } from '#domain/shared/throttle.ts';

// Issue 20: asking for a mailed link (a password reset, a new verification link, a new
// account's first link) is limited per address and per IP, like login, so that nobody floods
// an inbox, probes many addresses, or makes accounts by the thousand.
export type MailRequestKind = 'reset-password' | 'verify-email' | 'sign-up';

export const MAIL_REQUEST_WINDOW_MS = 15 * 60 * 1000;
export const MAX_MAIL_REQUESTS_PER_ADDRESS = 3;
export const MAX_MAIL_REQUESTS_PER_IP = 10;

// Sign-ups: a class signing up together in a campus lab shares one public IP, so the per-IP
// limit is a classroom's worth an hour, not ten a quarter hour.
export const SIGN_UP_WINDOW_MS = 60 * 60 * 1000;
export const MAX_SIGN_UPS_PER_IP = 60;

const LIMITS: Record<MailRequestKind, { windowMs: number; perAddress: number; perIp: number }> = {
  'reset-password': {
    windowMs: MAIL_REQUEST_WINDOW_MS,
    perAddress: MAX_MAIL_REQUESTS_PER_ADDRESS,
    perIp: MAX_MAIL_REQUESTS_PER_IP,
  },
  'verify-email': {
    windowMs: MAIL_REQUEST_WINDOW_MS,
    perAddress: MAX_MAIL_REQUESTS_PER_ADDRESS,
    perIp: MAX_MAIL_REQUESTS_PER_IP,
  },
  'sign-up': {
    windowMs: SIGN_UP_WINDOW_MS,
    perAddress: MAX_MAIL_REQUESTS_PER_ADDRESS,
    perIp: MAX_SIGN_UPS_PER_IP,
  },
};

/** How far back a request of this kind still counts. */
export function mailRequestWindowMs(kind: MailRequestKind): number {
  return LIMITS[kind].windowMs;
}

export function mailRequestThrottle(
  requests: RecentFailures,
  now: Date,
  kind: MailRequestKind,
): ThrottleDecision {
  const limits = LIMITS[kind];
  return throttle(requests, now, {
    windowMs: limits.windowMs,
    maxPerAccount: limits.perAddress,
    maxPerAddress: limits.perIp,
  });
}
