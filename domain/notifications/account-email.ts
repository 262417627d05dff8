import { eq } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { accountTokens } from '#db/schema/account-tokens.ts';
import { users } from '#db/schema/accounts.ts';
import { issueLinkToken } from '#domain/accounts/account-links.ts';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { isSecurityEvent } from '#domain/accounts/security-notice.ts';
import { translate } from '#i18n/translate.ts';
import { mailLocale } from './mail-locale.ts';
import type { Email } from './order-email.ts';

// Issue 20: the mails that carry an account's links (prove the address, reset the password,
// confirm a new address) and the notice to the old address of a change, in the account's
// language. The link's token is made here, as the mail is written (account-links.ts).

const PATHS = {
  'verify-email': '/accounts/verify',
  'reset-password': '/accounts/password/reset',
  'change-email': '/account/email/confirm',
} as const;

const KEYS = {
  'verify-email': 'email.verify',
  'reset-password': 'email.reset',
  'change-email': 'email.changeEmail',
} as const;

/** The mail of a queued link, or null when the link is used or expired (nothing to send). */
export async function accountLinkEmail(
  db: Queryable,
  payload: { tokenId: number; next?: unknown },
  publicOrigin: string,
  now: Date,
): Promise<Email | null> {
  const [row] = await db
    .select({
      purpose: accountTokens.purpose,
      email: accountTokens.email,
      firstName: users.firstName,
      languageCode: users.languageCode,
    })
    .from(accountTokens)
    .innerJoin(users, eq(users.id, accountTokens.userId))
    .where(eq(accountTokens.id, payload.tokenId))
    .limit(1);
  if (!row || !(row.purpose in PATHS)) return null;
  const purpose = row.purpose as keyof typeof PATHS;
  const token = await issueLinkToken(db, payload.tokenId, now);
  if (!token) return null;
  const locale = mailLocale(row.languageCode);
  const next = typeof payload.next === 'string' ? safeNextPath(payload.next) : null;
  const query = next && next !== '/' ? `?next=${encodeURIComponent(next)}` : '';
  const link = `${publicOrigin}${PATHS[purpose]}/${token}${query}`;
  const key = KEYS[purpose];
  return {
    to: row.email,
    subject: translate(locale, `${key}.subject`),
    text: [
      translate(locale, 'email.order.greeting', { name: row.firstName }),
      '',
      translate(locale, `${key}.body`, { email: row.email }),
      '',
      link,
      '',
      translate(locale, `${key}.expiry`),
      translate(locale, 'email.account.notYou'),
    ].join('\n'),
  };
}

/** The notice to the old address that a move to a new one was asked. */
export async function emailChangeNotice(
  db: Queryable,
  payload: { userId: number; oldEmail: unknown; newEmail: unknown },
): Promise<Email | null> {
  const [user] = await db
    .select({ firstName: users.firstName, languageCode: users.languageCode })
    .from(users)
    .where(eq(users.id, payload.userId))
    .limit(1);
  if (!user || typeof payload.oldEmail !== 'string' || typeof payload.newEmail !== 'string') {
    return null;
  }
  const locale = mailLocale(user.languageCode);
  return {
    to: payload.oldEmail,
    subject: translate(locale, 'email.changeNotice.subject'),
    text: [
      translate(locale, 'email.order.greeting', { name: user.firstName }),
      '',
      translate(locale, 'email.changeNotice.body', { email: payload.newEmail }),
      '',
      translate(locale, 'email.changeNotice.notYou'),
    ].join('\n'),
  };
}

/** The notice of a change to how the account signs in (security-notice.ts), at its address. */
export async function securityNoticeEmail(
  db: Queryable,
  payload: { userId: number; event: unknown; at: unknown; detail?: unknown },
  publicOrigin: string,
): Promise<Email | null> {
  const [user] = await db
    .select({
      email: users.email,
      firstName: users.firstName,
      languageCode: users.languageCode,
      timeZone: users.timeZone,
      isActive: users.isActive,
    })
    .from(users)
    .where(eq(users.id, payload.userId))
    .limit(1);
  if (!user?.isActive || !isSecurityEvent(payload.event) || typeof payload.at !== 'string') {
    return null;
  }
  const at = new Date(payload.at);
  if (Number.isNaN(at.getTime())) return null;
  const locale = mailLocale(user.languageCode);
  // The time says its zone (the account's): "November 27, 2026 at 12:05 PM PST".
  const when = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: user.timeZone,
  }).format(at);
  const key = `email.security.${payload.event}`;
  return {
    to: user.email,
    subject: translate(locale, `${key}.subject`),
    text: [
      translate(locale, 'email.order.greeting', { name: user.firstName }),
      '',
      translate(locale, `${key}.body`, {
        when,
        detail: typeof payload.detail === 'string' ? payload.detail : '',
      }),
      '',
      translate(locale, 'email.security.ifYou'),
      translate(locale, 'email.security.ifNot'),
      `${publicOrigin}/accounts/password/forgot/`,
    ].join('\n'),
  };
}

/**
 * Issue 37: someone asked to create an account with an address that has one. Sign-up answered
 * them as it answers anyone (a link is on its way); the owner is told here, with the ways in.
 */
export async function signUpExistingEmail(
  db: Queryable,
  payload: { userId: number },
  publicOrigin: string,
): Promise<Email | null> {
  const [user] = await db
    .select({
      email: users.email,
      firstName: users.firstName,
      languageCode: users.languageCode,
      isActive: users.isActive,
    })
    .from(users)
    .where(eq(users.id, payload.userId))
    .limit(1);
  if (!user?.isActive) return null;
  const locale = mailLocale(user.languageCode);
  return {
    to: user.email,
    subject: translate(locale, 'email.signUpExisting.subject'),
    text: [
      translate(locale, 'email.order.greeting', { name: user.firstName }),
      '',
      translate(locale, 'email.signUpExisting.body'),
      '',
      `${translate(locale, 'email.signUpExisting.logIn')} ${publicOrigin}/accounts/login/`,
      `${translate(locale, 'email.signUpExisting.forgot')} ${publicOrigin}/accounts/password/forgot/`,
      '',
      translate(locale, 'email.signUpExisting.notYou'),
    ].join('\n'),
  };
}
