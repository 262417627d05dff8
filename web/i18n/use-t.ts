import { useRouteLoaderData } from 'react-router';
import type { Locale } from '#domain/accounts/language.ts';
import { type MessageParams, translate } from '#i18n/translate.ts';
import type { RootData } from '#web/root-data.ts';

export function useRootData(): RootData | undefined {
  return useRouteLoaderData('root') as RootData | undefined;
}

export function useLocale(): Locale {
  return useRootData()?.locale ?? 'en';
}

/** The translate function for the current page's language. */
export function useT(): (id: string, params?: MessageParams) => string {
  const locale = useLocale();
  return (id, params) => translate(locale, id, params);
}

/** The time zone dates are shown in: the account's, else the store's (spec: UTC stored). */
export function useTimeZone(): string {
  return useRootData()?.user?.timeZone ?? 'America/New_York';
}
