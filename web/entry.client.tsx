import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { DEFAULT_LOCALE, isLocale } from '#domain/accounts/language.ts';
import { addPageMessages, completeCatalogs } from '#web/i18n/catalog.ts';
import { LocaleContext } from '#web/i18n/locale-context.ts';
import { PAGE_MESSAGES_ID } from '#web/i18n/page-messages.tsx';

// React Router's default browser entry, inside the request's language: the one the server
// rendered into <html lang> (see locale-context.ts). It hydrates with the messages the page
// carries; the rest of its language is downloaded at the visitor's first key or pointer press,
// when new texts may follow (issue 13, web/i18n/catalog.ts).
const lang = document.documentElement.lang;
const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;
addPageMessages(document.getElementById(PAGE_MESSAGES_ID)?.textContent || '{}');

const completeOnFirstPress = () => {
  completeCatalogs().catch(() => undefined);
};
for (const type of ['pointerdown', 'keydown'] as const) {
  document.addEventListener(type, completeOnFirstPress, {
    capture: true,
    once: true,
    passive: true,
  });
}

// Hydration starts in a task of its own: evaluating the modules is one long task already, and
// React's first steps (the router, the root's listeners) would lengthen it (issue 13: on a
// phone, one long task is what delays the first tap).
setTimeout(() => {
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
}, 0);
