import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { DEFAULT_LOCALE, isLocale } from '#domain/accounts/language.ts';
import { LocaleContext } from '#web/i18n/locale-context.ts';

// React Router's default browser entry, inside the request's language: the one the server
// rendered into <html lang> (see locale-context.ts), so hydration renders the same text.
const lang = document.documentElement.lang;
const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <LocaleContext.Provider value={locale}>
        <HydratedRouter />
      </LocaleContext.Provider>
    </StrictMode>,
  );
});
