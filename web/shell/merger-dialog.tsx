import * as Dialog from '@radix-ui/react-dialog';
import { useT } from '#web/i18n/use-t.ts';
import { useReturnFocus } from '#web/utils/use-return-focus.ts';

/** The merger modal (spec 1 §1; spec 2 §2 Modals: merger, 'Go To VitalSource'). */
export function MergerDialog({
  open,
  url,
  message,
  onClose,
}: {
  open: boolean;
  url: string;
  message: string;
  onClose: () => void;
}) {
  const t = useT();
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(isOpen) => !isOpen && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content className="dialog" {...returnFocus}>
          <Dialog.Title className="dialog__title">{t('banner.merger.title')}</Dialog.Title>
          <Dialog.Description>{message}</Dialog.Description>
          <div className="button-row">
            <a className="button button--primary" href={url}>
              {t('banner.merger.button')}
            </a>
            <Dialog.Close className="button button--secondary">
              {t('banner.merger.close')}
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
