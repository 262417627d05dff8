import type { Locale } from '#domain/accounts/language.ts';
import { formatMessage, type MessageParams } from './format-message.ts';
import { en, type MessageId } from './messages/en.ts';
import { frCA } from './messages/fr-CA.ts';

export { formatMoney } from './format-money.ts';
export type { MessageId, MessageParams };

// Both languages, for the server and domain (mail, API errors, error pages). Pages in the
// browser read only their own language's catalog instead: web/i18n/catalog.ts.
const catalogs: Record<Locale, Record<MessageId, string>> = { en, 'fr-CA': frCA };

export function isMessageId(key: string): key is MessageId {
  return Object.hasOwn(en, key);
}

/** Formats a catalog message; an unknown id (a bug) shows the generic error text. */
export function translate(locale: Locale, id: string, params?: MessageParams): string {
  const key: MessageId = isMessageId(id) ? id : 'error.generic';
  return formatMessage(locale, catalogs[locale][key], params);
}
