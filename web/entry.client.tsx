import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { DEFAULT_LOCALE, isLocale } from '#domain/accounts/language.ts';
import { loadCatalog } from '#web/i18n/catalog.ts';
import { LocaleContext } from '#web/i18n/locale-context.ts';

// React Router's default browser entry, inside the request's language: the one the server
// rendered into <html lang> (see locale-context.ts). Only that language's messages are
// downloaded (issue 13), and before hydrating, so the first render writes the server's text.
// Should they fail to arrive, the page stays as the server sent it: links and forms still work.
const lang = document.documentElement.lang;
const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;

loadCatalog(locale).then(
  () =>
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <LocaleContext.Provider value={locale}>
            <HydratedRouter />
          </LocaleContext.Provider>
        </StrictMode>,
      );
    }),
  (error: unknown) => console.error('The page could not load its messages', error),
);
