import * as Dialog from '@radix-ui/react-dialog';
import { Link } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';
import { useReturnFocus } from '#web/utils/use-return-focus.ts';

/**
 * 'Reading Option' (spec 1 §4 Course fee): a course-fee item is already the student's through
 * the section; adding it to the cart anyway is their choice.
 */
export function ReadingOptionDialog({
  open,
  courseFeeSectionId,
  onClose,
  onAdd,
}: {
  open: boolean;
  courseFeeSectionId: number | null;
  onClose: () => void;
  onAdd: () => void;
}) {
  const t = useT();
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(isOpen) => !isOpen && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content className="dialog" {...returnFocus}>
          <Dialog.Title className="dialog__title">{t('cart.readingOption.title')}</Dialog.Title>
          <Dialog.Description>{t('cart.readingOption.text')}</Dialog.Description>
          <div className="button-row">
            <Dialog.Close className="button">{t('cart.readingOption.continue')}</Dialog.Close>
            <Link
              to={`/shelf/course-section/${courseFeeSectionId}`}
              className="button"
              onClick={onClose}
            >
              {t('cart.readingOption.materials')}
            </Link>
            <button type="button" className="button button--primary" onClick={onAdd}>
              {t('cart.readingOption.add')}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
