import * as Dialog from '@radix-ui/react-dialog';
import { useT } from '#web/i18n/use-t.ts';

/**
 * spec 1 §4 Wallet payment, step 4: 'Your payment has been completed, trying to redirect to
 * order page.', which a click on the background cannot dismiss, shown until the page goes on
 * to the order-complete page.
 */
export function WalletSuccessDialog({ open }: { open: boolean }) {
  const t = useT();
  return (
    <Dialog.Root open={open}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content
          className="dialog"
          aria-describedby={undefined}
          // spec 1 §4: the success modal cannot be dismissed by clicking the background.
          onPointerDownOutside={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
          onEscapeKeyDown={(event) => event.preventDefault()}
        >
          <Dialog.Title className="dialog__title" role="status">
            {t('wallet.success')}
          </Dialog.Title>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
