import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useRootData, useT } from '#web/i18n/use-t.ts';
import { LanguageForm } from './language-form.tsx';

// The footer's language button opens the language modal (spec 2 §2: Cancel, Continue).
// Without JavaScript the same button is a link to the language page with the same form.
export function LanguagePicker() {
  const t = useT();
  const root = useRootData();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  if (!root) return null;
  const next = location.pathname + location.search;
  const current = t(`language.${root.locale}`);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Link
        to={`/account/language?next=${encodeURIComponent(next)}`}
        className="button button--ghost"
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
        aria-haspopup="dialog"
      >
        {t('language.button', { name: current })}
      </Link>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog__title">{t('language.title')}</Dialog.Title>
          <LanguageForm next={next} onCancel={() => setOpen(false)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
