import type { Locale } from '#domain/accounts/language.ts';
import { formatMessage, type MessageParams } from '#i18n/format-message.ts';
import type { MessageId } from '#i18n/messages/en.ts';

type Catalog = Record<MessageId, string>;
type Messages = Partial<Record<string, string>>;

/**
 * The messages pages are rendered with (issue 13: a phone should not download 10 kB of
 * texts to show a page that uses a hundred of them).
 *
 * - The server has every language and notes which messages a render used; the page carries
 *   those in its HTML (<PageMessages />, at the end of the body), and the browser hydrates with
 *   them: the same texts, no download.
 * - The rest of the page's language is a chunk of its own, downloaded when it may be needed:
 *   at the visitor's first key or pointer press (entry.client.tsx), with a dialog's code
 *   (web/utils/on-demand.tsx), before a page renders in another language (the root's
 *   clientLoader), or when a render asks for a message the page does not have. Until it has
 *   arrived such a message is empty, and useT's components render again when it has.
 */
const importers: Record<Locale, () => Promise<Catalog>> = {
  en: () => import('#i18n/messages/en.ts').then((module) => module.en),
  'fr-CA': () => import('#i18n/messages/fr-CA.ts').then((module) => module.frCA),
};

const known = new Map<Locale, Messages>();
const complete = new Set<Locale>();
const loading = new Map<Locale, Promise<void>>();
const listeners = new Set<() => void>();
let version = 0;
/** The server's note of the messages the render in progress used (renderToString is synchronous). */
let used: Map<Locale, Set<string>> | null = null;
/** The browser's copy of the messages its page came with, as the page wrote them. */
let pageMessagesJson = '{}';

function note(locale: Locale, id: string): void {
  if (!used) return;
  const ids = used.get(locale);
  if (ids) ids.add(id);
  else used.set(locale, new Set([id]));
}

/** Resolves once the whole catalog of the language is loaded; a failed download may be retried. */
export function loadCatalog(locale: Locale): Promise<void> {
  if (complete.has(locale)) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = importers[locale]().then(
      (catalog) => {
        known.set(locale, catalog);
        complete.add(locale);
        loading.delete(locale);
        version += 1;
        for (const listener of listeners) listener();
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

/** Loads the rest of every language the browser has only a page's messages of. */
export function completeCatalogs(): Promise<void> {
  return Promise.all([...known.keys()].map(loadCatalog)).then(() => undefined);
}

/** Formats a message; an id no catalog has (a bug) shows the generic error text. */
export function translatePage(locale: Locale, id: string, params?: MessageParams): string {
  const messages = known.get(locale);
  let text = messages?.[id];
  if (text === undefined) {
    if (!complete.has(locale)) {
      loadCatalog(locale).catch(() => undefined);
      return '';
    }
    text = messages?.['error.generic'] ?? '';
    id = 'error.generic';
  }
  note(locale, id);
  return formatMessage(locale, text, params);
}

/** Whether the language has this id (a thrown domain error's key, say), as far as is known. */
export function hasMessage(locale: Locale, id: string): boolean {
  const found = Object.hasOwn(known.get(locale) ?? {}, id);
  if (found) note(locale, id);
  return found;
}

/** Messages a component may show after hydration without a press (View Cart, say). */
export function notePageMessages(locale: Locale, ids: readonly string[]): void {
  if (!used) return;
  for (const id of ids) if (known.get(locale)?.[id] !== undefined) note(locale, id);
}

/**
 * `preferred` if any of its messages are here, else a language that has some: for a meta
 * function on a page without root data, whose language the browser may not have.
 */
export function loadedLocale(preferred: Locale): Locale {
  if (known.has(preferred)) return preferred;
  return known.keys().next().value ?? preferred;
}

/** Server: renders with a note of the messages used, for <PageMessages /> to write out. */
export function renderNotingMessages<T>(render: () => T): T {
  used = new Map();
  try {
    return render();
  } finally {
    used = null;
  }
}

/** The JSON <PageMessages /> writes: `{ locale: { id: text } }` of what the page used. */
export function pageMessages(): string {
  if (!used) return pageMessagesJson;
  const out: Record<string, Messages> = {};
  for (const [locale, ids] of used) {
    const messages: Messages = {};
    for (const id of [...ids].sort()) messages[id] = known.get(locale)?.[id];
    out[locale] = messages;
  }
  return JSON.stringify(out).replace(/</g, '\\u003c');
}

/** Browser: the messages the page came with (the JSON of <PageMessages />). */
export function addPageMessages(json: string): void {
  pageMessagesJson = json;
  const parsed = JSON.parse(json) as Partial<Record<Locale, Messages>>;
  for (const [locale, messages] of Object.entries(parsed) as [Locale, Messages][]) {
    if (complete.has(locale)) continue;
    known.set(locale, { ...known.get(locale), ...messages });
  }
}

/** For useSyncExternalStore: the count of catalogs that have arrived. */
export function subscribeCatalogs(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function catalogsVersion(): number {
  return version;
}
