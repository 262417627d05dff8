import { useContext, useSyncExternalStore } from 'react';
import { useRouteLoaderData } from 'react-router';
import { DEFAULT_LOCALE, type Locale } from '#domain/accounts/language.ts';
import type { MessageParams } from '#i18n/format-message.ts';
import type { RootData } from '#web/root-data.ts';
import { catalogsVersion, notePageMessages, subscribeCatalogs, translatePage } from './catalog.ts';
import { LocaleContext } from './locale-context.ts';

export function useRootData(): RootData | undefined {
  return useRouteLoaderData('root') as RootData | undefined;
}

/** The page's language: the root data's, else the request's (error pages may have no data). */
export function useLocale(): Locale {
  const requestLocale = useContext(LocaleContext);
  return useRootData()?.locale ?? requestLocale ?? DEFAULT_LOCALE;
}

/** Renders again when a language's whole catalog has arrived (catalog.ts). */
export function useCatalogUpdates(): void {
  useSyncExternalStore(subscribeCatalogs, catalogsVersion, catalogsVersion);
}

/**
 * The translate function for the current page's language. `later` names messages the
 * component may show after hydration by itself (not after a press): the page carries them.
 */
export function useT(later?: readonly string[]): (id: string, params?: MessageParams) => string {
  const locale = useLocale();
  useCatalogUpdates();
  if (later) notePageMessages(locale, later);
  return (id, params) => translatePage(locale, id, params);
}

/** The time zone dates are shown in: the account's, else the store's (spec: UTC stored). */
export function useTimeZone(): string {
  return useRootData()?.user?.timeZone ?? 'America/New_York';
}
