import { DEFAULT_LOCALE } from '#domain/accounts/language.ts';
import type { MessageParams } from '#i18n/format-message.ts';
import { loadedLocale, translatePage } from '#web/i18n/catalog.ts';
import type { RootData } from '#web/root-data.ts';

type Match = { id: string; data?: unknown; loaderData?: unknown } | undefined;

/** Reads the root route's data from a meta function's matches. */
export function rootDataFrom(matches: readonly Match[]): RootData | undefined {
  const root = matches.find((m) => m?.id === 'root');
  return (root?.loaderData ?? root?.data) as RootData | undefined;
}

/** A translated <title> (and description) for a route's meta export. */
export function pageMeta(
  matches: readonly Match[],
  titleId: string,
  params?: MessageParams,
  descriptionId?: string,
) {
  const root = rootDataFrom(matches);
  const locale = loadedLocale(root?.locale ?? DEFAULT_LOCALE);
  const title = translatePage(locale, titleId, {
    title: root?.site.title ?? 'Shelfmark',
    ...params,
  });
  const tags: Record<string, string>[] = [{ title }];
  if (descriptionId)
    tags.push({ name: 'description', content: translatePage(locale, descriptionId) });
  return tags;
}
