import * as Dialog from '@radix-ui/react-dialog';
import { useId, useRef, useState } from 'react';
import { useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';

type Step =
  | { name: 'init'; error: string | null }
  | { name: 'processing' }
  | { name: 'success'; title: string };

/**
 * Posts a code to POST /api/redeem: the title it unlocked, or the answer's translated error.
 */
export async function postRedeemCode(
  code: string,
  csrfToken: string,
  signal?: AbortSignal,
): Promise<{ title: string } | { error: string }> {
  const response = await fetch('/api/redeem', {
    method: 'POST',
    credentials: 'same-origin',
    signal,
    headers: {
      Accept: 'application/vnd.api+json',
      'Content-Type': 'application/vnd.api+json',
      'X-CSRFToken': csrfToken,
    },
    body: JSON.stringify({ data: { type: 'redeem', attributes: { code } } }),
  });
  const body = (await response.json().catch(() => null)) as {
    data?: { attributes?: { title?: string } };
    errors?: { detail?: string }[];
  } | null;
  if (response.ok) return { title: body?.data?.attributes?.title ?? '' };
  return { error: body?.errors?.[0]?.detail ?? response.statusText };
}

/**
 * 'Redeem Your Access Code' (spec 1 §4 Redeem dialog): Redeem (with Cancel, which closes the
 * dialog), then 'Validating access code...' with Cancel, then 'Congratulations!', the title the
 * code unlocked (issue 38) and Return To My Shelf, which reloads the page. On failure the code is cleared and the button reads
 * Redeem again. Radix gives the focus back to the button that opened it.
 */
export function RedeemDialog({ label }: { label: string }) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<Step>({ name: 'init', error: null });
  const [code, setCode] = useState('');
  const request = useRef<AbortController | null>(null);
  const fieldId = useId();
  const errorId = useId();

  const submit = async () => {
    if (!csrfToken) return;
    request.current = new AbortController();
    setStep({ name: 'processing' });
    try {
      const answer = await postRedeemCode(code, csrfToken, request.current.signal);
      if ('title' in answer) setStep({ name: 'success', title: answer.title });
      else {
        setCode('');
        setStep({ name: 'init', error: answer.error });
      }
    } catch {
      // Canceled, or the request failed: back to the start, the code cleared.
      setCode('');
      setStep({
        name: 'init',
        error: request.current?.signal.aborted ? null : t('error.generic'),
      });
    }
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          request.current?.abort();
          setStep({ name: 'init', error: null });
          setCode('');
        }
      }}
    >
      <Dialog.Trigger className="button button--secondary">{label}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          {step.name === 'success' ? (
            <div className="stack">
              <Dialog.Title className="dialog__title">{t('redeem.success.title')}</Dialog.Title>
              <p>{t('redeem.success.text')}</p>
              {step.title ? <p>{t('redeem.success.unlocked', { title: step.title })}</p> : null}
              <div className="button-row">
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() => window.location.reload()}
                >
                  {t('redeem.success.shelf')}
                </button>
              </div>
            </div>
          ) : (
            <form
              className="stack"
              onSubmit={(event) => {
                event.preventDefault();
                void submit();
              }}
            >
              <Dialog.Title className="dialog__title">{t('redeem.title')}</Dialog.Title>
              <div className="field">
                <label htmlFor={fieldId}>{t('redeem.field')}</label>
                <input
                  id={fieldId}
                  value={code}
                  required
                  maxLength={64}
                  autoComplete="off"
                  disabled={step.name === 'processing'}
                  aria-invalid={step.name === 'init' && step.error ? true : undefined}
                  aria-describedby={step.name === 'init' && step.error ? errorId : undefined}
                  onChange={(event) => setCode(event.target.value)}
                />
                {step.name === 'init' && step.error ? (
                  <p className="field__error" id={errorId} role="alert">
                    {step.error}
                  </p>
                ) : null}
              </div>
              {step.name === 'processing' ? (
                <div className="button-row">
                  <output>{t('redeem.processing')}</output>
                  <button type="button" className="button" onClick={() => request.current?.abort()}>
                    {t('redeem.cancel')}
                  </button>
                </div>
              ) : (
                <div className="button-row">
                  <button type="submit" className="button button--primary" disabled={!csrfToken}>
                    {t('redeem.submit')}
                  </button>
                  {/* A way out before submitting, besides Escape; focus returns to the opener. */}
                  <Dialog.Close type="button" className="button">
                    {t('redeem.cancel')}
                  </Dialog.Close>
                </div>
              )}
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
