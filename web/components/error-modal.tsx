import * as Dialog from '@radix-ui/react-dialog';
import type { RefObject } from 'react';
import { useRootData, useT } from '#web/i18n/use-t.ts';

/**
 * The generic error modal (spec 2 §2 Modals, §8): 'Sorry, something went wrong.', the
 * message and a support link, with Close. Not a route: the page opens it after a failed call.
 */
export function ErrorModal({
  open,
  message,
  detail = null,
  onClose,
  returnFocusTo,
}: {
  open: boolean;
  /** The translated message. */
  message: string;
  /** The server's own explanation, when it gave one. */
  detail?: string | null;
  onClose: () => void;
  /** Where the focus goes back to on close (the control whose call failed). */
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const t = useT();
  const support = useRootData()?.site.links.support ?? '/support';
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content
          className="dialog"
          onCloseAutoFocus={(event) => {
            if (!returnFocusTo?.current) return;
            event.preventDefault();
            returnFocusTo.current.focus();
          }}
        >
          <Dialog.Title className="dialog__title">{t('errorModal.title')}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="stack-sm">
              <p>{message}</p>
              {detail ? <p className="form-hint">{detail}</p> : null}
            </div>
          </Dialog.Description>
          <div className="button-row">
            <a href={support} className="button">
              {t('errorModal.support')}
            </a>
            <Dialog.Close className="button button--primary">{t('sheet.close')}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
