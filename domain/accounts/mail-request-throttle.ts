import { type RecentFailures, type ThrottleDecision, throttle } from '#domain/shared/throttle.ts';

// Issue 20: asking for a mailed link (a password reset, a new verification link) is limited
// per address and per IP, like login, so that nobody floods an inbox or probes many addresses.
export const MAIL_REQUEST_WINDOW_MS = 15 * 60 * 1000;
export const MAX_MAIL_REQUESTS_PER_ADDRESS = 3;
export const MAX_MAIL_REQUESTS_PER_IP = 10;

export function mailRequestThrottle(requests: RecentFailures, now: Date): ThrottleDecision {
  return throttle(requests, now, {
    windowMs: MAIL_REQUEST_WINDOW_MS,
    maxPerAccount: MAX_MAIL_REQUESTS_PER_ADDRESS,
    maxPerAddress: MAX_MAIL_REQUESTS_PER_IP,
  });
}
