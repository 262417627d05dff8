import { useEffect, useRef, useState } from 'react';
import type { ReaderView } from '#domain/reading/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import type { ReaderApi } from '#web/utils/reader-api.ts';
import { canKeepOffline, keepBookOffline } from './offline-reading.ts';

// The reader's side of offline reading (issue 16): keeps the book's offline share on this
// device once the page is idle, and again when the reader moves out of it; says what is kept;
// knows when the network is gone; sends what was done offline once it is back (the place,
// highlights, notes and bookmarks: web/utils/reader-api.ts keeps them meanwhile), and opens
// the book at that place when its page comes from what was kept.

/** What of the reader's page this needs (its data, as the page has it). */
type OfflineView = Pick<ReaderView, 'product' | 'drm' | 'format' | 'position'> & {
  grant: { expiresAt: string | Date | null };
};

type Kept =
  | { state: 'keeping' }
  /** `from`: the part the share was counted from. */
  | { state: 'kept'; parts: number[]; from: number }
  | { state: 'failed' }
  | { state: 'unavailable' };

export function useOfflineReading({
  view,
  api,
  courseMemberId,
  part,
  say,
  openAt,
  onNotesSaved,
}: {
  view: OfflineView;
  api: ReaderApi;
  courseMemberId: number | null;
  /** The part the reader is in now. */
  part: number;
  say(text: string): void;
  /** Opens the book at a place (the one read offline, when newer than the page's). */
  openAt(part: number, progression: number): void;
  /** Highlights, notes or bookmarks made offline were saved: the list is to be read again. */
  onNotesSaved(): void;
}): { status: string | null; online: boolean } {
  const t = useT();
  const allowed = view.drm.offlinePercent !== null;
  const [kept, setKept] = useState<Kept | null>(null);
  const [online, setOnline] = useState(true);
  const keptParts = kept?.state === 'kept' ? kept.parts : null;
  const keptFrom = kept?.state === 'kept' ? kept.from : null;
  const running = useRef(false);

  // The latest words and callbacks, without making the network's effect run at each render
  // (useT gives a new function each time: each render would send the waiting changes again).
  const latest = useRef({ say, t, onNotesSaved });
  latest.current = { say, t, onNotesSaved };

  // The network, as the browser knows it; back online, what waited is sent.
  useEffect(() => {
    const update = () => {
      setOnline(navigator.onLine);
      if (navigator.onLine)
        api.flushPending().then(
          (saved) => {
            if (!saved) return;
            const { say, t, onNotesSaved } = latest.current;
            const said: string[] = [];
            if (saved.annotations > 0)
              said.push(t('reader.offline.syncedNotes', { count: saved.annotations }));
            else if (saved.position) said.push(t('reader.offline.synced'));
            // A change the server refused is not dropped without a word (issue 16).
            if (saved.refused > 0) {
              said.push(
                t('reader.offline.notSaved', {
                  count: saved.refused,
                  reason: saved.reason ?? t('error.generic'),
                }),
              );
            }
            if (saved.annotations > 0 || saved.refused > 0) onNotesSaved();
            if (said.length > 0) say(said.join(' '));
          },
          () => {},
        );
    };
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, [api]);

  // Another tab of this book made or sent changes: the list is read again, so this one shows
  // the saved highlights' ids, never the temporary ones it had.
  useEffect(() => api.watchPending(() => latest.current.onNotesSaved()), [api]);

  // A page that came from what was kept shows the place of when it was kept: the place read
  // since, on this device, is newer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page opens
  useEffect(() => {
    const pending = api.pendingPosition();
    if (pending && pending.part !== view.position.part) openAt(pending.part, pending.progression);
  }, []);

  // The share, kept once the page is idle, and again when the reader leaves it (online only).
  useEffect(() => {
    if (!allowed || !online || running.current) return;
    if (
      keptParts?.includes(part) ||
      keptFrom === part ||
      kept?.state === 'unavailable' ||
      kept?.state === 'failed'
    )
      return;
    if (!canKeepOffline()) {
      setKept({ state: 'unavailable' });
      return;
    }
    const timer = window.setTimeout(() => {
      running.current = true;
      setKept((current) => current ?? { state: 'keeping' });
      keepBookOffline({
        productId: view.product.id,
        format: view.format,
        courseMemberId,
        part,
        expiresAt: view.grant.expiresAt ? new Date(view.grant.expiresAt).toISOString() : null,
      })
        .then(
          (result) =>
            setKept(
              result
                ? { state: 'kept', parts: result.parts, from: part }
                : { state: 'unavailable' },
            ),
          () => setKept({ state: 'failed' }),
        )
        .finally(() => {
          running.current = false;
        });
    }, 1_500);
    return () => window.clearTimeout(timer);
  }, [allowed, online, part, keptParts, keptFrom, kept?.state, view, courseMemberId]);

  let status: string | null = null;
  if (kept?.state === 'keeping') status = t('reader.offline.keeping');
  else if (kept?.state === 'kept')
    status = t(view.format === 'pdf' ? 'reader.offline.keptPages' : 'reader.offline.kept', {
      count: kept.parts.length,
    });
  else if (kept?.state === 'unavailable') status = t('reader.offline.unavailable');
  else if (kept?.state === 'failed') status = t('reader.offline.failed');
  return { status, online };
}
