import { randomUUID } from 'node:crypto';
import type { Queryable } from '#db/client.ts';
import { enqueue } from '#domain/notifications/outbox.ts';

// Issue 20: what changes how an account is signed in to is told to its owner by mail, at the
// account's address, in the same transaction as the change: if it was not them, they know, and
// the mail says what to do. (A new e-mail address has its own notice, to the old address.)
export const SECURITY_EVENTS = [
  'password-changed',
  'password-reset',
  'passkey-added',
  'passkey-removed',
  'totp-on',
  'totp-off',
  'recovery-codes-renewed',
  'campus-linked',
  // Issue 37: so many wrong passwords that signing in waits for everyone (login-throttle.ts).
  'many-failed-logins',
] as const;
export type SecurityEvent = (typeof SECURITY_EVENTS)[number];

export function isSecurityEvent(value: unknown): value is SecurityEvent {
  return typeof value === 'string' && (SECURITY_EVENTS as readonly string[]).includes(value);
}

export async function queueSecurityNotice(
  db: Queryable,
  input: { userId: number; event: SecurityEvent; now: Date; detail?: string },
): Promise<void> {
  await enqueue(db, {
    kind: 'security-notice',
    dedupeKey: `security-notice:${input.userId}:${input.event}:${randomUUID()}`,
    payload: {
      userId: input.userId,
      event: input.event,
      at: input.now.toISOString(),
      ...(input.detail ? { detail: input.detail.slice(0, 200) } : {}),
    },
    to: { userId: input.userId },
  });
}
