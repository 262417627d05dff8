import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '#web/i18n/use-t.ts';
import { cookiesWork } from './cookie-support.client.ts';

/**
 * Asks the browser for the cookies (document.requestStorageAccess, which needs the press of a
 * button), then checks again.
 */
async function askForCookies(): Promise<boolean> {
  if (typeof document.requestStorageAccess === 'function') {
    try {
      await document.requestStorageAccess();
    } catch {
      // Refused, or nothing to grant (a top-level page): the check below says how it stands.
    }
  }
  return cookiesWork();
}

type Step = 'asking' | 'processing' | 'stillBlocked' | 'allowed';

/**
 * The cookie-permission screen (spec 1 §1): cookies are required; 'Allow Cookies' is disabled
 * while the browser is asked, then a thank-you message and a refresh button, 'Access Your
 * Materials Now', appear. When the browser still refuses, it says where to allow them.
 */
export function CookiePermission() {
  const t = useT();
  const titleId = useId();
  const [step, setStep] = useState<Step>('asking');
  const refresh = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // The button pressed is replaced: the focus goes to the one that takes its place.
    if (step === 'allowed') refresh.current?.focus();
  }, [step]);
  return (
    <section className="cookie-permission alert" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('cookies.title')}</h2>
      <p>{t('cookies.text')}</p>
      <output className="cookie-permission__status">
        {step === 'allowed' ? t('cookies.thanks') : null}
        {step === 'stillBlocked' ? t('cookies.stillBlocked') : null}
      </output>
      <p className="button-row">
        {step === 'allowed' ? (
          <button
            ref={refresh}
            type="button"
            className="button button--primary"
            onClick={() => window.location.reload()}
          >
            {t('cookies.access')}
          </button>
        ) : (
          <button
            type="button"
            className="button button--primary"
            // aria-disabled rather than disabled: the button keeps the keyboard focus.
            aria-disabled={step === 'processing'}
            aria-busy={step === 'processing'}
            onClick={async () => {
              if (step === 'processing') return;
              setStep('processing');
              setStep((await askForCookies()) ? 'allowed' : 'stillBlocked');
            }}
          >
            {t('cookies.allow')}
          </button>
        )}
      </p>
    </section>
  );
}
