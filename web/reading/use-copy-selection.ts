import type { RefObject } from 'react';
import { normalizedLength } from '#domain/reading/xhtml-content.ts';
import { useT } from '#web/i18n/use-t.ts';
import type { ReaderApi } from '#web/utils/reader-api.ts';
import { selectedBookText } from './selected-text.ts';

/**
 * Copy selection (spec 1 §3 copyPercentage, issue 5): the book's text selected is counted
 * against the copy allowance on the server, and put on the clipboard only when it is allowed.
 */
export function useCopySelection({
  api,
  pageArea,
  say,
  setUsed,
  countingFailed,
}: {
  api: ReaderApi;
  pageArea: RefObject<HTMLElement | null>;
  say(text: string): void;
  setUsed(update: (old: { copy: number; print: number }) => { copy: number; print: number }): void;
  /** A copy the server could not count (no network, or the book closed). */
  countingFailed(error: unknown): void;
}): () => Promise<void> {
  const t = useT();
  return async function copySelection() {
    const text = selectedBookText(pageArea.current);
    const characters = normalizedLength(text);
    if (characters === 0) {
      say(t('reader.copy.nothing'));
      return;
    }
    try {
      const answer = await api.allow({ kind: 'copy', characters });
      setUsed((old) => ({ ...old, copy: answer.used }));
      if (answer.allowed) {
        try {
          await navigator.clipboard.writeText(text);
        } catch {
          say(t('reader.copy.clipboard'));
          return;
        }
      }
      say(answer.message);
    } catch (error) {
      countingFailed(error);
    }
  };
}
