import { useCallback, useEffect, useState } from 'react';
import { useT } from '#web/i18n/use-t.ts';

/** Button-notify (spec 1 §4; spec 2 §9 'Button notify 2000 ms'): how long its text shows. */
export const NOTIFY_MS = 2000;

export type NotifyKind = 'success' | 'error';

/** What button-notify says now (null: nothing), and a function that says it for NOTIFY_MS. */
export function useButtonNotify(): [NotifyKind | null, (kind: NotifyKind) => void] {
  const [shown, setShown] = useState<{ kind: NotifyKind; at: number } | null>(null);
  useEffect(() => {
    if (shown === null) return;
    const timer = window.setTimeout(() => setShown(null), NOTIFY_MS);
    return () => window.clearTimeout(timer);
  }, [shown]);
  const notify = useCallback((kind: NotifyKind) => setShown({ kind, at: Date.now() }), []);
  return [shown?.kind ?? null, notify];
}

/**
 * Says button-notify's text, 'Success' or 'Error' (spec 2 §8 defaults), in a polite live
 * region that is always in the page, so that screen readers announce the change.
 */
export function ButtonNotify({ kind }: { kind: NotifyKind | null }) {
  const t = useT(['notify.success', 'notify.error']);
  return (
    <output className="form-hint button-notify" aria-live="polite">
      {kind ? t(`notify.${kind}`) : ''}
    </output>
  );
}
