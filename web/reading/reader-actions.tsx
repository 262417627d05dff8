import type { Ref } from 'react';
import { useT } from '#web/i18n/use-t.ts';
import type { PartStart } from './epub-view.tsx';
import { ReaderPrint, type ReaderPrintHandle } from './reader-print.tsx';

/**
 * What the reader does under the page (issue 5): copy the selection (counted against the copy
 * allowance), print (where the book allows it) and, in an EPUB, go to the chapter before or
 * after.
 */
export function ReaderActions({
  onCopy,
  print,
  chapters,
  openPart,
}: {
  onCopy(): void;
  /** The print form, null where the book allows no printing. */
  print: {
    ref: Ref<ReaderPrintHandle>;
    pages: number;
    left: number;
    busy: boolean;
    current(): { page: number; label: string | null };
    onPrint(from: number, to: number): void;
  } | null;
  /** The chapter shown (an EPUB's), null for a PDF. */
  chapters: { part: number; count: number; hrefOf(part: number): string } | null;
  openPart(index: number, where: PartStart): Promise<void>;
}) {
  const t = useT();
  return (
    <div className="reader__actions">
      <button
        type="button"
        className="button button--secondary"
        onMouseDown={(event) => event.preventDefault()}
        onClick={onCopy}
      >
        {t('reader.copy')}
      </button>
      {print ? (
        <ReaderPrint
          ref={print.ref}
          pages={print.pages}
          left={print.left}
          busy={print.busy}
          current={print.current}
          onPrint={print.onPrint}
        />
      ) : null}
      {chapters ? (
        <nav aria-label={t('reader.chapters')} className="reader__chapters">
          {chapters.part > 0 ? (
            <a
              href={chapters.hrefOf(chapters.part - 1)}
              onClick={(e) => {
                e.preventDefault();
                void openPart(chapters.part - 1, { at: 'progression', progression: 0 });
              }}
            >
              {t('reader.previousChapter')}
            </a>
          ) : null}
          {chapters.part < chapters.count - 1 ? (
            <a
              href={chapters.hrefOf(chapters.part + 1)}
              onClick={(e) => {
                e.preventDefault();
                void openPart(chapters.part + 1, { at: 'progression', progression: 0 });
              }}
            >
              {t('reader.nextChapter')}
            </a>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
