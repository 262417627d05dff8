import { useCallback, useContext, useSyncExternalStore } from 'react';
import { useRouteLoaderData } from 'react-router';
import { DEFAULT_LOCALE, type Locale } from '#domain/accounts/language.ts';
import type { MessageParams } from '#i18n/format-message.ts';
import { type RootData, withRootPersonal } from '#web/root-data.ts';
import { type RootPersonal, usePersonalData } from '#web/utils/personal-part.ts';
import { catalogsVersion, notePageMessages, subscribeCatalogs, translatePage } from './catalog.ts';
import { LocaleContext } from './locale-context.ts';

/**
 * The root loader's data; on a page composed from a stored one, with the visitor's personal
 * part once the page has hydrated (web/utils/personal-part.ts, decision 043).
 */
export function useRootData(): RootData | undefined {
  return usePersonalData('root', useRouteLoaderData('root') as RootData | undefined, applyRoot);
}

const applyRoot = (data: RootData | undefined, part: RootPersonal) =>
  data ? withRootPersonal(data, part) : data;

/** The page's language: the root data's, else the request's (error pages may have no data). */
export function useLocale(): Locale {
  const requestLocale = useContext(LocaleContext);
  return useRootData()?.locale ?? requestLocale ?? DEFAULT_LOCALE;
}

/** Renders again when a language's whole catalog has arrived (catalog.ts); its version. */
export function useCatalogUpdates(): number {
  return useSyncExternalStore(subscribeCatalogs, catalogsVersion, catalogsVersion);
}

/**
 * The translate function for the current page's language. `later` names messages the
 * component may show after hydration by itself (not after a press): the page carries them.
 */
export function useT(later?: readonly string[]): (id: string, params?: MessageParams) => string {
  const locale = useLocale();
  const version = useCatalogUpdates();
  if (later) notePageMessages(locale, later);
  // The same function until the language or its catalog changes: an effect that names it
  // runs again only then (a new one at each render made effects that set state loop: the
  // reader fetched a spread's facing page without end).
  // biome-ignore lint/correctness/useExhaustiveDependencies: version stands for the catalog
  return useCallback(
    (id: string, params?: MessageParams) => translatePage(locale, id, params),
    [locale, version],
  );
}

/** The time zone dates are shown in: the account's, else the store's (spec: UTC stored). */
export function useTimeZone(): string {
  return useRootData()?.user?.timeZone ?? 'America/New_York';
}
