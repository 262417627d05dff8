import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { useT } from '#web/i18n/use-t.ts';
import { useReturnFocus } from '#web/utils/use-return-focus.ts';

/**
 * The 'Accessibility Metadata' modal (spec 1 §2), opened from 'See all'; `children` is the list
 * of every group (accessibility-metadata.tsx renders it: the product page's code has it).
 */
export function AccessibilityDialog({
  open,
  onClose,
  children,
}: {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
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
          <section
            className="dialog__scroll"
            aria-label={t('a11y.title')}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the list scrolls, and may hold no link to reach it by: the keyboard scrolls it from here (WCAG 2.1.1)
            tabIndex={0}
          >
            {children}
          </section>
          <div className="button-row">
            <Dialog.Close className="button button--primary">{t('a11y.close')}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
