import { useT } from '#web/i18n/use-t.ts';

/** An import's status in words (issue 39). */
export function RosterStatus({ status }: { status: string }) {
  const t = useT();
  return <>{t(`ops.roster.status.${status}`)}</>;
}
