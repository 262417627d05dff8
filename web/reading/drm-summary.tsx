import type { ReaderDrm } from '#domain/reading/types.ts';
import { useT } from '#web/i18n/use-t.ts';

const PRINT_MESSAGE = {
  pdf: 'reader.drm.printPdf',
  marked: 'reader.drm.printMarked',
  length: 'reader.drm.printEpub',
} as const;

// The book's DRM restrictions (spec 1 §2 shelf details: Offline percent, Copy/Paste percent,
// Printing), each percentage only when above 0 and rounded (spec 1 §5, spec 2 §9), with what
// is used; printing in the book's print pages with how many are left, or why there is none.
export function DrmSummary({
  drm,
  offline = null,
}: {
  drm: ReaderDrm;
  /** What this device keeps of the book for reading offline, when known (issue 16). */
  offline?: string | null;
}) {
  const t = useT();
  const rows: string[] = [];
  if (drm.copyPercent !== null)
    rows.push(
      t('reader.drm.copy', {
        percent: drm.copyPercent,
        used: drm.copy.used,
        limit: drm.copy.limit,
      }),
    );
  if (drm.printPercent !== null && drm.print.limit > 0)
    rows.push(
      t(PRINT_MESSAGE[drm.print.unit], {
        percent: drm.printPercent,
        limit: drm.print.limit,
        pages: drm.print.pages,
        left: Math.max(0, drm.print.limit - drm.print.used),
      }),
    );
  else rows.push(t('reader.drm.printNone'));
  if (drm.offlinePercent !== null)
    rows.push(t('reader.drm.offline', { percent: drm.offlinePercent }));
  if (offline) rows.push(offline);
  return (
    <section className="reader-drm stack-sm" aria-labelledby="reader-drm-heading">
      <h2 id="reader-drm-heading">{t('reader.drm.heading')}</h2>
      <ul>
        {rows.map((row) => (
          <li key={row}>{row}</li>
        ))}
      </ul>
    </section>
  );
}
