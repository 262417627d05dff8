import { useT } from '#web/i18n/use-t.ts';

/** The ten recovery codes, shown this once (issue 20): only their digests are kept. */
export function RecoveryCodesList({ codes }: { codes: string[] }) {
  const t = useT();
  return (
    <section className="alert alert--success stack" aria-labelledby="recovery-codes-heading">
      <h2 id="recovery-codes-heading">{t('security.recovery.heading')}</h2>
      <p>{t('security.recovery.once')}</p>
      <ul className="recovery-codes" translate="no">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
