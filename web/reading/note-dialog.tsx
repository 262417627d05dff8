import { useEffect, useMemo, useRef } from 'react';
import type { BookLanguage } from '#domain/reading/types.ts';
import { useT } from '#web/i18n/use-t.ts';

/**
 * A book's note as HTML for the pop-up (issue 16): the note element's content without its
 * link back (the pop-up closes instead) and without ids, which the page already has.
 */
export function noteHtml(note: Element): string {
  const copy = note.cloneNode(true) as Element;
  for (const back of copy.querySelectorAll('a[role="doc-backlink"]')) back.remove();
  for (const withId of copy.querySelectorAll('[id]')) withId.removeAttribute('id');
  return copy.innerHTML.trim();
}

/**
 * The note a reference points to, shown over the text (issue 16, footnotes as pop-ups): a
 * modal dialog, so the focus moves into it, Escape or Close shuts it and the browser returns
 * the focus to the reference. It sits inside the reading area: copying from it is counted like
 * any copy of the book.
 */
export function NoteDialog({
  html,
  language,
  onClose,
}: {
  html: string | null;
  language: BookLanguage | null;
  onClose(): void;
}) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (html !== null && !element.open) element.showModal();
    if (html === null && element.open) element.close();
  }, [html]);
  const content = useMemo(() => ({ __html: html ?? '' }), [html]);
  return (
    <dialog
      ref={dialog}
      className="reader-note stack-sm"
      aria-labelledby="reader-note-title"
      onClose={onClose}
    >
      <h2 id="reader-note-title" className="reader-note__title">
        {t('reader.note')}
      </h2>
      <div
        className="reader-note__text"
        lang={language?.lang}
        dir={language?.dir}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the book's note, rebuilt from an allow-list on the server (xhtml-content.ts)
        dangerouslySetInnerHTML={content}
      />
      <form method="dialog">
        <button type="submit" className="button button--secondary">
          {t('reader.note.close')}
        </button>
      </form>
    </dialog>
  );
}
