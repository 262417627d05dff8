import { useEffect, useRef, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { passkeysWorkOn } from '#domain/accounts/passkey-host.ts';
import { useT } from '#web/i18n/use-t.ts';

// Shown only once the page runs (the browser's WebAuthn is known then): the page carries them.
const LATER = ['login.passkey.submit', 'login.passkey.error.cancelled'] as const;

/**
 * 'Sign in with a passkey' (issue 20): shown where the browser has WebAuthn, once the page
 * runs; the ceremony's code is fetched at the press, so the login page carries none of it.
 */
export function PasskeySignIn({ csrfToken, next }: { csrfToken: string; next: string }) {
  const t = useT(LATER);
  const [supported, setSupported] = useState(false);
  const [failed, setFailed] = useState(false);
  const [working, setWorking] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const assertion = useRef<HTMLInputElement>(null);
  const busy = useNavigation().state !== 'idle' || working;
  useEffect(() => {
    setSupported(
      typeof window.PublicKeyCredential === 'function' && passkeysWorkOn(window.location.hostname),
    );
  }, []);
  if (!supported) return null;

  async function start() {
    setFailed(false);
    setWorking(true);
    try {
      const { passkeyAssertion } = await import('./passkey-ceremony.client.ts');
      assertion.current!.value = await passkeyAssertion(csrfToken, next);
      form.current!.requestSubmit();
    } catch {
      setFailed(true);
    } finally {
      setWorking(false);
    }
  }

  return (
    <Form method="post" ref={form} className="stack">
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
      <input type="hidden" name="intent" value="passkey" />
      <input type="hidden" name="next" value={next} />
      <input type="hidden" name="assertion" ref={assertion} />
      <button type="button" className="button button--secondary" onClick={start} disabled={busy}>
        {t('login.passkey.submit')}
      </button>
      {failed ? (
        <p className="alert alert--error" role="alert">
          {t('login.passkey.error.cancelled')}
        </p>
      ) : null}
    </Form>
  );
}
