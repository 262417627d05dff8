import { useT } from '#web/i18n/use-t.ts';

/** An import's status in words (issue 39); a running one whose process stopped says so. */
export function RosterStatus({ status, stalled = false }: { status: string; stalled?: boolean }) {
  const t = useT();
  return <>{t(stalled ? 'ops.roster.status.stalled' : `ops.roster.status.${status}`)}</>;
}
