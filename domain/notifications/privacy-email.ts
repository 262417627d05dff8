import { eq } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { privacyRequests } from '#db/schema/privacy.ts';
import { translate } from '#i18n/translate.ts';
import { mailLocale } from './mail-locale.ts';
import type { Email } from './order-email.ts';

/**
 * The mail that confirms a privacy request (issue 20: "each confirmed by mail"), in the
 * account's language: the link to download the data, or to confirm the deletion. Null when
 * the request is gone (the account was deleted meanwhile) or already used.
 */
export async function privacyLinkEmail(
  db: Queryable,
  payload: Record<string, unknown>,
  publicOrigin: string,
): Promise<Email | null> {
  const requestId = Number(payload.requestId);
  const token = typeof payload.token === 'string' ? payload.token : null;
  if (!Number.isInteger(requestId) || !token) return null;
  const [row] = await db
    .select({
      kind: privacyRequests.kind,
      usedAt: privacyRequests.usedAt,
      email: users.email,
      firstName: users.firstName,
      languageCode: users.languageCode,
    })
    .from(privacyRequests)
    .innerJoin(users, eq(users.id, privacyRequests.userId))
    .where(eq(privacyRequests.id, requestId))
    .limit(1);
  if (!row || row.usedAt) return null;
  const locale = mailLocale(row.languageCode);
  const say = (id: string, params?: Record<string, string | number>) =>
    translate(locale, id, params);
  const kind = row.kind === 'delete' ? 'delete' : 'export';
  return {
    to: row.email,
    subject: say(`email.privacy.${kind}.subject`),
    text: [
      say('email.privacy.greeting', { name: row.firstName }),
      '',
      say(`email.privacy.${kind}.intro`),
      '',
      `${publicOrigin}/account/privacy/${kind}/${token}`,
      '',
      say('email.privacy.expires'),
      say('email.privacy.notYou'),
    ].join('\n'),
  };
}
