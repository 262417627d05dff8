import { useContext } from 'react';
import { useRouteLoaderData } from 'react-router';
import { DEFAULT_LOCALE, type Locale } from '#domain/accounts/language.ts';
import type { MessageParams } from '#i18n/format-message.ts';
import type { RootData } from '#web/root-data.ts';
import { translatePage } from './catalog.ts';
import { LocaleContext } from './locale-context.ts';

export function useRootData(): RootData | undefined {
  return useRouteLoaderData('root') as RootData | undefined;
}

/** The page's language: the root data's, else the request's (error pages may have no data). */
export function useLocale(): Locale {
  const requestLocale = useContext(LocaleContext);
  return useRootData()?.locale ?? requestLocale ?? DEFAULT_LOCALE;
}

/** The translate function for the current page's language (its catalog is loaded: catalog.ts). */
export function useT(): (id: string, params?: MessageParams) => string {
  const locale = useLocale();
  return (id, params) => translatePage(locale, id, params);
}

/** The time zone dates are shown in: the account's, else the store's (spec: UTC stored). */
export function useTimeZone(): string {
  return useRootData()?.user?.timeZone ?? 'America/New_York';
}
