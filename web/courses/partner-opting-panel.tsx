import * as Dialog from '@radix-ui/react-dialog';
import { useT } from '#web/i18n/use-t.ts';

/**
 * The custom bookstore-partner organisation's panel instead of opting (spec 1 §4 Opting,
 * Partner hand-off; spec 2 §2 Modals, §4): the student goes to the digital bookstore.
 * Rendered inside the banner's Dialog.Root.
 */
export function PartnerOptingPanel({ storeUrl }: { storeUrl: string | null }) {
  const t = useT();
  return (
    <Dialog.Portal>
      <Dialog.Overlay className="dialog__overlay" />
      <Dialog.Content className="dialog">
        <Dialog.Title className="dialog__title">{t('opting.partner.title')}</Dialog.Title>
        <Dialog.Description>{t('opting.partner.text')}</Dialog.Description>
        <div className="button-row">
          <Dialog.Close className="button">{t('sheet.close')}</Dialog.Close>
          {storeUrl ? (
            <a href={storeUrl} className="button button--primary" rel="noopener">
              {t('opting.partner.go')}
            </a>
          ) : null}
        </div>
      </Dialog.Content>
    </Dialog.Portal>
  );
}
