import { type MouseEvent, useState } from 'react';
import { useT } from '#web/i18n/use-t.ts';

const LATER = ['security.passkey.error.cancelled'] as const;

/**
 * The add form's submit button: it first asks the browser for a new passkey (the ceremony's
 * code is fetched at the press), then sends the form with the authenticator's answer. Without
 * JavaScript the form is sent as it is and the server says a passkey needs it.
 */
export function PasskeyAddButton({
  csrfToken,
  disabled,
}: {
  csrfToken: string;
  disabled: boolean;
}) {
  const t = useT(LATER);
  const [failed, setFailed] = useState(false);
  const [working, setWorking] = useState(false);

  async function create(event: MouseEvent<HTMLButtonElement>) {
    const form = event.currentTarget.form;
    if (!form || typeof window.PublicKeyCredential !== 'function') return;
    event.preventDefault();
    const name = form.elements.namedItem('name') as HTMLInputElement | null;
    if (name && name.value.trim() === '') {
      form.requestSubmit();
      return;
    }
    setFailed(false);
    setWorking(true);
    try {
      const { passkeyAttestation } = await import('./passkey-ceremony.client.ts');
      const answer = await passkeyAttestation(csrfToken);
      const field = form.elements.namedItem('response') as HTMLInputElement;
      field.value = answer;
      form.requestSubmit();
    } catch {
      setFailed(true);
    } finally {
      setWorking(false);
    }
  }

  return (
    <>
      <input type="hidden" name="response" defaultValue="" />
      <button
        type="submit"
        className="button button--primary"
        onClick={create}
        disabled={disabled || working}
      >
        {t('security.passkey.add.submit')}
      </button>
      {failed ? (
        <p className="alert alert--error" role="alert">
          {t('security.passkey.error.cancelled')}
        </p>
      ) : null}
    </>
  );
}
