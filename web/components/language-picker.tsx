import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useRootData, useT } from '#web/i18n/use-t.ts';
import { onDemand } from '#web/utils/on-demand.tsx';

const LanguageDialog = onDemand(() =>
  import('./language-dialog.tsx').then((module) => module.LanguageDialog),
);

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
    <>
      <Link
        to={`/account/language?next=${encodeURIComponent(next)}`}
        className="button button--ghost"
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
        onPointerEnter={LanguageDialog.preload}
        onFocus={LanguageDialog.preload}
        aria-haspopup="dialog"
      >
        {t('language.button', { name: current })}
      </Link>
      <LanguageDialog when={open} open={open} next={next} onClose={() => setOpen(false)} />
    </>
  );
}
