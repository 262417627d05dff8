import { type RefObject, useEffect, useRef } from 'react';
import type { ReaderApi } from '#web/utils/reader-api.ts';
import type { UnsavedReading } from './use-reader-settings.ts';

/**
 * The reader's place (issue 5): saved on the server a moment after it settles, and at once
 * when the page goes with the settings still unsaved; the address's ?chapter= dropped once the
 * reader has moved on from it.
 */
export function useSavedPlace({
  api,
  from,
  location,
  isPdf,
  closed,
  close,
  unsaved,
}: {
  api: ReaderApi;
  /** The place the book opened at. */
  from: { part: number; progression: number };
  location: { part: number; progression: number };
  isPdf: boolean;
  /** The book closed (access ended): nothing is saved any more. */
  closed: boolean;
  /** What a refused save does: the book closes, or the reader is told. */
  close(error: unknown): void;
  unsaved: RefObject<UnsavedReading>;
}): void {
  // The place, saved on the server a moment after it settles (any device opens it there).
  const saved = useRef({ part: from.part, progression: from.progression });
  useEffect(() => {
    if (closed) return;
    const position = {
      part: location.part,
      progression: isPdf ? 0 : Math.min(1, Math.max(0, location.progression)),
    };
    if (
      position.part === saved.current.part &&
      Math.abs(position.progression - saved.current.progression) < 1e-6
    )
      return;
    unsaved.current.position = position;
    const timer = setTimeout(() => {
      unsaved.current.position = undefined;
      saved.current = position;
      api.savePosition(position).catch(close);
    }, 500);
    return () => clearTimeout(timer);
  }, [location.part, location.progression, isPdf, api, close, closed, unsaved]);

  useEffect(() => {
    const leave = () => {
      const { position, settings } = unsaved.current;
      unsaved.current = {};
      if (position) {
        saved.current = position;
        api.savePosition(position, true).catch(() => {});
      }
      if (settings) api.saveSettings(settings, true).catch(() => {});
    };
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [api, unsaved]);

  // The address names the chapter asked for (?chapter=): once the reader has moved on, it no
  // longer does, so a reload opens the place read, not that chapter again.
  useEffect(() => {
    const url = new URL(window.location.href);
    const asked = url.searchParams.get('chapter');
    if (asked === null || Number(asked) - 1 === location.part) return;
    url.searchParams.delete('chapter');
    window.history.replaceState(window.history.state, '', url);
  }, [location.part]);
}
