import { AsyncLocalStorage } from 'node:async_hooks';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#domain/accounts/language.ts';

// The language a mail is written in (issue 37's walk: a French visitor whose account has no
// language of its own, the demo accounts' case, got an English "someone tried to sign up with
// your address" and English reset mails): the person's own choice, else the language of the
// page that asked for the mail, else English (DESIGN.md, Requests). The server runs each
// request within its language (withAskingLocale); the outbox keeps it with the message
// (askingLocale, in outbox.ts's enqueue); the worker renders the message within it
// (renderingFor) and every mail asks mailLocale.

const asking = new AsyncLocalStorage<Locale>();
const rendering = new AsyncLocalStorage<Locale | null>();

export function withAskingLocale<T>(locale: Locale, run: () => T): T {
  return asking.run(locale, run);
}

/** The language of the request under way, if any (work outside a request has none). */
export function askingLocale(): Locale | null {
  return asking.getStore() ?? null;
}

/** Renders a queued message within the language it was asked for in (`payload.askedIn`). */
export function renderingFor<T>(askedIn: unknown, run: () => T): T {
  return rendering.run(isLocale(askedIn) ? askedIn : null, run);
}

/** The language to write to a person in: their stored choice, else the asking page's, else en. */
export function mailLocale(languageCode: string | null | undefined): Locale {
  if (isLocale(languageCode)) return languageCode;
  return rendering.getStore() ?? DEFAULT_LOCALE;
}
