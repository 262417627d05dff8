import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { ErrorModal } from './error-modal.tsx';

type Handoff = { url: string; body: Record<string, string> };

/** spec 2 §7 Follett-style handoff: the partner store's URL and the form fields to post. */
async function lookUpHandoff(rsCourseId: string): Promise<Handoff> {
  const response = await fetch(`/api/efollett/${encodeURIComponent(rsCourseId)}/`, {
    credentials: 'same-origin',
    headers: { Accept: 'application/vnd.api+json' },
  });
  if (!response.ok) throw new Error(`handoff look-up answered ${response.status}`);
  const body = (await response.json()) as { data?: { attributes?: Partial<Handoff> } };
  const attributes = body.data?.attributes;
  if (typeof attributes?.url !== 'string' || typeof attributes.body !== 'object') {
    throw new Error('handoff look-up answered no url');
  }
  return { url: attributes.url, body: attributes.body ?? {} };
}

/** Posts the fields to the store with a hidden form, leaving our site. */
function postHiddenForm(handoff: Handoff): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = handoff.url;
  form.hidden = true;
  for (const [name, value] of Object.entries(handoff.body)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = String(value);
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

/**
 * Buy Now of the bookstore-partner organisation (spec 1 §4 Partner hand-off; spec 2 §4): a
 * purchase modal listing the materials to buy, then the look-up and a hidden form posted to
 * the partner store. A redirect failure closes the modal, shows the error modal, and is
 * logged with a redirect-error event (spec 2 §8).
 */
export function PartnerPurchaseModal({
  rsCourseId,
  course,
  candidates,
  trigger,
}: {
  rsCourseId: string;
  course: string;
  candidates: { productId: number; title: string }[];
  /** Renders the buttons that open the modal; the focus goes back to the one pressed. */
  trigger: (open: (from: HTMLElement) => void) => ReactNode;
}) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const returnFocus = (event: Event) => {
    if (!opener.current) return;
    event.preventDefault();
    opener.current.focus();
  };

  const report = (message: string) => {
    console.error(`Partner store redirect failed: ${message}`);
    if (!csrfToken) return;
    void fetch('/api/events/redirect-error', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/vnd.api+json', 'X-CSRFToken': csrfToken },
      body: JSON.stringify({ path: pathname, message: message.slice(0, 500) }),
      keepalive: true,
    }).catch(() => undefined);
  };

  const go = async () => {
    setBusy(true);
    try {
      postHiddenForm(await lookUpHandoff(rsCourseId));
    } catch (error) {
      setBusy(false);
      setOpen(false);
      setFailed(true);
      report(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <>
      {trigger((from) => {
        opener.current = from;
        setOpen(true);
      })}
      <Dialog.Root open={open} onOpenChange={(next) => !busy && setOpen(next)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog__overlay" />
          <Dialog.Content className="dialog" onCloseAutoFocus={returnFocus}>
            <Dialog.Title className="dialog__title">{t('partner.purchase.title')}</Dialog.Title>
            <Dialog.Description>{t('partner.purchase.text', { course })}</Dialog.Description>
            <ul>
              {candidates.map((candidate) => (
                <li key={candidate.productId}>{candidate.title}</li>
              ))}
            </ul>
            <div className="button-row">
              <Dialog.Close className="button" disabled={busy}>
                {t('partner.purchase.cancel')}
              </Dialog.Close>
              <button type="button" className="button button--primary" onClick={go} disabled={busy}>
                {t(busy ? 'partner.purchase.redirecting' : 'partner.purchase.continue')}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <ErrorModal
        open={failed}
        message={t('partner.error.redirect')}
        returnFocusTo={opener}
        onClose={() => setFailed(false)}
      />
    </>
  );
}
