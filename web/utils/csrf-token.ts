import { startTransition, useEffect, useState } from 'react';
import { useRootData } from '#web/i18n/use-t.ts';
import { whenIdle } from './when-idle.ts';

let anonymousToken: Promise<string | null> | null = null;

/** Asks the server for this browser's token (it sets the anonymous cookie it is bound to). */
function fetchToken(): Promise<string | null> {
  anonymousToken ??= fetch('/api/account/login', {
    credentials: 'same-origin',
    headers: { Accept: 'application/vnd.api+json' },
  })
    .then((response) => (response.ok ? response.json() : null))
    .then((body) => body?.data?.attributes?.csrfToken ?? null)
    .catch(() => {
      anonymousToken = null;
      return null;
    });
  return anonymousToken;
}

/**
 * The CSRF token for forms and writes. Logged-in pages carry it in the root data; anonymous
 * catalog pages are shared by every visitor (page cache), so they carry none and the
 * browser fetches its own once, when it is idle after hydration (when-idle.ts).
 */
export function useCsrfToken(given?: string | null): string | null {
  const fromRoot = useRootData()?.csrfToken ?? null;
  const [fetched, setFetched] = useState<string | null>(null);
  const known = given ?? fromRoot;
  useEffect(() => {
    if (known) return;
    let live = true;
    const cancel = whenIdle(() => {
      void fetchToken().then((token) => {
        // A transition: the form that shows the token renders again in slices the browser can
        // interrupt. As a plain update it was one task of the whole page (a product page's
        // sections, offerings and wallet: 35 ms at 4x CPU, Lighthouse's blocking time).
        if (live) startTransition(() => setFetched(token));
      });
    });
    return () => {
      live = false;
      cancel();
    };
  }, [known]);
  return known ?? fetched;
}
