import * as Dialog from '@radix-ui/react-dialog';
import { useT } from '#web/i18n/use-t.ts';
import { useReturnFocus } from '#web/utils/use-return-focus.ts';
import { LanguageForm } from './language-form.tsx';

/** The language modal of spec 2 §2 (Cancel, Continue), opened by the footer's button. */
export function LanguageDialog({
  open,
  next,
  onClose,
}: {
  open: boolean;
  next: string;
  onClose: () => void;
}) {
  const t = useT();
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(isOpen) => !isOpen && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined} {...returnFocus}>
          <Dialog.Title className="dialog__title">{t('language.title')}</Dialog.Title>
          <LanguageForm next={next} onCancel={onClose} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
