import { type MouseEvent as ReactMouseEvent, type RefObject, useCallback, useState } from 'react';
import type { ReaderPart } from '#domain/reading/types.ts';
import type { ReaderApi } from '#web/utils/reader-api.ts';
import type { PartStart } from './epub-view.tsx';
import { noteHtml } from './note-dialog.tsx';

/**
 * The book's own links in the reading area (issue 16): a link to another place of the book
 * opens it there; a note reference opens its note over the text, from this chapter or
 * another, or goes to it when it is no note.
 */
export function useBookLinks({
  api,
  pageArea,
  part,
  isPdf,
  openPart,
}: {
  api: ReaderApi;
  pageArea: RefObject<HTMLElement | null>;
  part: ReaderPart | null;
  isPdf: boolean;
  openPart(index: number, where: PartStart): Promise<void>;
}) {
  // A note reference opens its note over the text (issue 16), from this chapter or another.
  const [note, setNote] = useState<string | null>(null);
  const showNote = useCallback(
    async (target: number, id: string): Promise<boolean> => {
      let found: Element | null = null;
      if (target === part?.index) {
        found = pageArea.current?.querySelector(`#${CSS.escape(id)}`) ?? null;
      } else if (!isPdf) {
        const other = document.createElement('template');
        other.innerHTML = (await api.part(target).catch(() => null))?.html ?? '';
        found = other.content.querySelector(`#${CSS.escape(id)}`);
      }
      if (!found?.hasAttribute('data-note')) return false;
      setNote(noteHtml(found));
      return true;
    },
    [part?.index, isPdf, api, pageArea],
  );

  const onClick = (event: ReactMouseEvent) => {
    const link = (event.target as Element).closest?.('a[data-part]');
    if (!link || link.closest('dialog')) return;
    event.preventDefault();
    const fragment = link.getAttribute('data-fragment');
    const target = Number(link.getAttribute('data-part'));
    const go = () =>
      openPart(
        target,
        fragment ? { at: 'fragment', id: fragment } : { at: 'progression', progression: 0 },
      );
    if (link.getAttribute('role') === 'doc-noteref' && fragment) {
      void showNote(target, fragment).then((shown) => {
        if (!shown) void go();
      });
    } else void go();
  };

  return { note, closeNote: () => setNote(null), onClick };
}
