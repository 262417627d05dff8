import { useCallback, useEffect, useRef } from 'react';
import type { ReaderPart } from '#domain/reading/types.ts';
import type { ReaderApi } from '#web/utils/reader-api.ts';

/**
 * The parts just before and after the ones shown, fetched a moment after the reader settles
 * (issue 16, "page turn ≤ 100 ms"): a turn into the next or the previous chapter then waits
 * for no network (bench/reader-open.ts: those turns were the slowest). Returns how to get a
 * part: the one fetched ahead when there is one, else from the server.
 */
export function useNearbyParts(
  api: ReaderApi,
  shown: readonly number[],
  partCount: number,
  enabled: boolean,
): (index: number) => Promise<ReaderPart> {
  // Parts fetched ahead, for this api (another book, or another way in, starts afresh).
  const ahead = useRef({ api, parts: new Map<number, Promise<ReaderPart>>() });
  if (ahead.current.api !== api) ahead.current = { api, parts: new Map() };
  const kept = ahead.current.parts;
  const shownKey = shown.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: shownKey stands for shown
  useEffect(() => {
    if (!enabled || shown.length === 0) return;
    const first = Math.min(...shown) - 1;
    const last = Math.max(...shown) + 1;
    // Only the neighbours of what is shown are kept.
    for (const index of kept.keys()) if (index < first || index > last) kept.delete(index);
    const timer = window.setTimeout(() => {
      for (const index of [first, last]) {
        if (index < 0 || index >= partCount || kept.has(index)) continue;
        const fetched = api.part(index);
        fetched.catch(() => kept.delete(index));
        kept.set(index, fetched);
      }
    }, 300);
    return () => window.clearTimeout(timer);
  }, [api, kept, enabled, partCount, shownKey]);
  return useCallback((index: number) => kept.get(index) ?? api.part(index), [api, kept]);
}
