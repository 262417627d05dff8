import type { Locale } from '#domain/accounts/language.ts';
import { formatMessage, type MessageParams } from '#i18n/format-message.ts';
import type { MessageId } from '#i18n/messages/en.ts';

type Catalog = Record<MessageId, string>;

/**
 * The message catalogs pages are rendered with. Each language is a chunk of its own, so a
 * browser downloads only the language of its page (issue 13: about 10 kB gzipped each), and
 * downloads it before anything renders in it: entry.client.tsx before hydrating, the root's
 * clientLoader when a write changed the page's language. The server loads every language.
 */
const importers: Record<Locale, () => Promise<Catalog>> = {
  en: () => import('#i18n/messages/en.ts').then((module) => module.en),
  'fr-CA': () => import('#i18n/messages/fr-CA.ts').then((module) => module.frCA),
};

const loaded = new Map<Locale, Catalog>();
const loading = new Map<Locale, Promise<void>>();

/** Resolves once the language's catalog is loaded; a failed download may be tried again. */
export function loadCatalog(locale: Locale): Promise<void> {
  if (loaded.has(locale)) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = importers[locale]().then(
      (catalog) => {
        loaded.set(locale, catalog);
        loading.delete(locale);
      },
      (error: unknown) => {
        loading.delete(locale);
        throw error;
      },
    );
    loading.set(locale, pending);
  }
  return pending;
}

/**
 * `preferred` if its catalog is loaded, else a language that is: for a meta function on a page
 * without root data, whose language the browser may not have downloaded.
 */
export function loadedLocale(preferred: Locale): Locale {
  if (loaded.has(preferred)) return preferred;
  return loaded.keys().next().value ?? preferred;
}

function catalogOf(locale: Locale): Catalog {
  const catalog = loaded.get(locale);
  if (catalog) return catalog;
  throw new Error(`The ${locale} messages are used before loadCatalog('${locale}') resolved`);
}

/** Whether the catalog has this id (a thrown domain error's key, say). */
export function hasMessage(locale: Locale, id: string): id is MessageId {
  return Object.hasOwn(catalogOf(locale), id);
}

/** Formats a message of a loaded catalog; an unknown id (a bug) shows the generic error text. */
export function translatePage(locale: Locale, id: string, params?: MessageParams): string {
  const catalog = catalogOf(locale);
  const key: MessageId = Object.hasOwn(catalog, id) ? (id as MessageId) : 'error.generic';
  return formatMessage(locale, catalog[key], params);
}
