import type { ReaderDrm } from '#domain/reading/types.ts';
import { useT } from '#web/i18n/use-t.ts';

// The book's DRM restrictions (spec 1 §2 shelf details: Offline percent, Copy/Paste percent,
// Printing), each only when above 0 and rounded (spec 1 §5, spec 2 §9), with what is used.
export function DrmSummary({ drm, format }: { drm: ReaderDrm; format: 'epub' | 'pdf' }) {
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
  if (drm.printPercent !== null)
    rows.push(
      t(format === 'pdf' ? 'reader.drm.printPdf' : 'reader.drm.printEpub', {
        percent: drm.printPercent,
        used: drm.print.used,
        limit: drm.print.limit,
      }),
    );
  if (drm.offlinePercent !== null)
    rows.push(t('reader.drm.offline', { percent: drm.offlinePercent }));
  if (rows.length === 0) return null;
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
