import { useEffect, useState } from 'react';
import type { MergerNotice } from '#domain/sites/merger.ts';
import { useT } from '#web/i18n/use-t.ts';
import { onDemand } from '#web/utils/on-demand.tsx';

const MergerDialog = onDemand(() =>
  import('./merger-dialog.tsx').then((module) => module.MergerDialog),
);

/** Remembered once the modal has opened: it opens once per browser, the banner stays. */
const SEEN_KEY = 'shelfmark.mergerModal.seen';

/**
 * spec 1 §1: a banner announces the merger with VitalSource (future purchases there, owned
 * materials still here). Where the site shows the merger modal (domain/sites/merger.ts), it
 * opens by itself on the visitor's first page, and again from the banner's 'Learn More'; its
 * code is downloaded only then (issue 13, the JavaScript budget). Without storage to remember
 * it in, it does not open by itself: opening on every page would be worse.
 */
export function MergerBanner({ notice }: { notice: MergerNotice }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const url = notice.modalUrl;
  useEffect(() => {
    try {
      if (url && !localStorage.getItem(SEEN_KEY)) {
        localStorage.setItem(SEEN_KEY, '1');
        setOpen(true);
      }
    } catch {
      // No storage: see above.
    }
  }, [url]);
  const message = notice.message ?? t('banner.merger.text');
  return (
    <section className="banner" aria-label={t('banner.merger.label')}>
      <p>{message}</p>
      {url ? (
        <>
          <button
            type="button"
            className="button button--secondary"
            aria-haspopup="dialog"
            onClick={() => setOpen(true)}
          >
            {t('banner.merger.more')}
          </button>
          <MergerDialog
            when={open}
            open={open}
            url={url}
            message={message}
            onClose={() => setOpen(false)}
          />
        </>
      ) : null}
    </section>
  );
}
