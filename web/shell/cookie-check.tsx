import { useEffect, useState } from 'react';
import { onDemand } from '#web/utils/on-demand.tsx';
import { whenIdle } from '#web/utils/when-idle.ts';
import { cookiesWork } from './cookie-support.client.ts';

const CookiePermission = onDemand(() =>
  import('./cookie-permission.tsx').then((module) => module.CookiePermission),
);

/**
 * spec 1 §1: when the browser refuses our cookies, the cookie-permission screen says they are
 * required (signing in, the cart and reading all need the session). Checked once the page has
 * hydrated; the screen's code is downloaded only for a browser that needs it.
 */
export function CookieCheck() {
  const [refused, setRefused] = useState(false);
  // At an idle moment: writing and reading a cookie waits on the browser process, which is
  // busy while the page loads (part of hydration's longest task in Lighthouse traces).
  useEffect(
    () =>
      whenIdle(() => {
        cookiesWork().then((works) => setRefused(!works));
      }),
    [],
  );
  return <CookiePermission when={refused} />;
}
