import * as Dialog from '@radix-ui/react-dialog';
import { useT } from '#web/i18n/use-t.ts';
import { useReturnFocus } from '#web/utils/use-return-focus.ts';

/**
 * 'Unable to Add to Cart' (spec 1 §4 Cart button: if adding fails, the error modal appears)
 * with the translated reason; open while there is a message. It sits above the side sheets.
 */
export function CartErrorDialog({
  message,
  onClose,
}: {
  message: string | null;
  onClose: () => void;
}) {
  const t = useT();
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={message !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay dialog__overlay--raised" />
        <Dialog.Content className="dialog dialog--raised" {...returnFocus}>
          <Dialog.Title className="dialog__title">{t('cart.error.title')}</Dialog.Title>
          <Dialog.Description>{message}</Dialog.Description>
          <div className="button-row">
            <Dialog.Close className="button button--primary">{t('sheet.close')}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
