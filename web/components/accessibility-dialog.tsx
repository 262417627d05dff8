import * as Dialog from '@radix-ui/react-dialog';
import type { AccessibilityGroup } from '#domain/catalog/accessibility-metadata.ts';
import { useT } from '#web/i18n/use-t.ts';
import { useReturnFocus } from '#web/utils/use-return-focus.ts';
import { AccessibilityGroupList } from './accessibility-group-list.tsx';

/** The 'Accessibility Metadata' modal (spec 1 §2): every group, opened from 'See all'. */
export function AccessibilityDialog({
  open,
  groups,
  onClose,
}: {
  open: boolean;
  groups: AccessibilityGroup[];
  onClose: () => void;
}) {
  const t = useT();
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(isOpen) => !isOpen && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content
          className="dialog dialog--wide"
          aria-describedby={undefined}
          {...returnFocus}
        >
          <Dialog.Title className="dialog__title">{t('a11y.title')}</Dialog.Title>
          <div className="dialog__scroll">
            <AccessibilityGroupList groups={groups} headingLevel={3} />
          </div>
          <div className="button-row">
            <Dialog.Close className="button button--primary">{t('a11y.close')}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
