import { useEffect, useId, useState } from 'react';
import { pageTarget, printPageCount } from '#domain/reading/print-pages.ts';
import type { ReaderSettings } from '#domain/reading/reader-settings.ts';
import type { TocEntry } from '#domain/reading/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import { DrmSummary } from './drm-summary.tsx';
import type { PartStart } from './epub-view.tsx';
import type { ReaderData } from './reader.tsx';
import { ReaderDisplaySettings } from './reader-display-settings.tsx';
import { ReaderGoToPage } from './reader-go-to-page.tsx';
import { ReaderNotebook } from './reader-notebook.tsx';
import { ReaderReadAloud } from './reader-read-aloud.tsx';
import { type ReaderHit, ReaderSearch } from './reader-search.tsx';
import { ReaderToc } from './reader-toc.tsx';
import type { useNotebook } from './use-notebook.ts';
import type { useOfflineReading } from './use-offline-reading.ts';
import type { useReadAloudText } from './use-read-aloud-text.ts';

/**
 * The reading tools beside the book (issue 5, 16): contents, search, read aloud, the notebook,
 * go to page, display settings, the DRM allowances and the keys. On a phone (issue 19) they
 * fold away behind one button so the text starts on the first screen.
 */
export function ReaderTools({
  view,
  bookLang,
  isPdf,
  fixed,
  chapterHref,
  currentPart,
  openPart,
  partTitle,
  printedLabel,
  say,
  search,
  readAloud,
  notebook,
  settings,
  onSettings,
  used,
  offlineStatus,
}: {
  view: ReaderData;
  /** The book's language, for its chapter names (issue 13). */
  bookLang: { lang?: string };
  isPdf: boolean;
  fixed: boolean;
  chapterHref(part: number): string;
  currentPart: number;
  openPart(index: number, where: PartStart): Promise<void>;
  partTitle(index: number): string;
  printedLabel(page: number): string;
  say(text: string): void;
  search(query: string): Promise<ReaderHit[]>;
  readAloud: ReturnType<typeof useReadAloudText>;
  notebook: ReturnType<typeof useNotebook>;
  settings: ReaderSettings | null;
  onSettings(settings: ReaderSettings): void;
  /** What has been copied and printed so far. */
  used: { copy: number; print: number };
  offlineStatus: ReturnType<typeof useOfflineReading>['status'];
}) {
  const t = useT();
  const ids = useId();
  // Issue 19, on a phone: the reading tools fold away behind one button so the text starts on
  // the first screen. null until hydrated: without JavaScript the tools stay shown.
  const [toolsOpen, setToolsOpen] = useState<boolean | null>(null);
  useEffect(() => setToolsOpen(false), []);
  // On a phone, what a tool opens (a search hit, a chapter, a highlight) is shown at once: the
  // tools fold and the page comes into view (the hit was a screen further down, unseen).
  const showBook = () => {
    if (!toolsOpen || !window.matchMedia('(max-width: 959px)').matches) return;
    setToolsOpen(false);
    requestAnimationFrame(() =>
      document.querySelector('.reader__main')?.scrollIntoView({ block: 'start' }),
    );
  };
  const [notebookOpen, setNotebookOpen] = useState(false);

  const openToc = (entry: TocEntry) => {
    showBook();
    void openPart(
      entry.part,
      entry.fragment
        ? { at: 'fragment', id: `p${entry.part}-${entry.fragment.replace(/[^\w-]/g, '_')}` }
        : { at: 'progression', progression: 0 },
    );
  };

  const toc = isPdf
    ? Array.from({ length: view.partCount }, (_, i) => ({
        label: t('reader.pageLabel', { page: i + 1 }),
        part: i,
        fragment: null,
        children: [],
      }))
    : view.toc;

  return (
    <>
      {toolsOpen === null ? null : (
        <button
          type="button"
          className="button button--secondary reader__tools-toggle"
          aria-expanded={toolsOpen}
          aria-controls={`${ids}-tools`}
          onClick={() => setToolsOpen(!toolsOpen)}
        >
          {t('reader.tools')}
        </button>
      )}
      <section
        id={`${ids}-tools`}
        className={`reader__tools stack-sm${toolsOpen === false ? ' reader__tools--folded' : ''}`}
        aria-label={t('reader.tools')}
      >
        <details>
          <summary>{t('reader.toc')}</summary>
          <ReaderToc
            entries={toc}
            lang={isPdf ? {} : bookLang}
            hrefOf={chapterHref}
            current={currentPart}
            onOpen={openToc}
          />
        </details>
        <details>
          <summary>{t('reader.search')}</summary>
          <ReaderSearch
            search={search}
            partLabel={partTitle}
            onOpen={(hit, query, n, count) => {
              showBook();
              void openPart(hit.part, {
                at: 'occurrence',
                query,
                occurrence: hit.occurrence,
              }).then(() => say(t('reader.search.shown', { n, count, query })));
            }}
          />
        </details>
        <details>
          <summary>{t('reader.readAloud')}</summary>
          <ReaderReadAloud
            lang={view.language?.lang}
            chapter={readAloud.readingChapter}
            onSentence={readAloud.showSpoken}
            onChapterEnd={readAloud.readNextChapter}
            onStop={readAloud.clearSpoken}
            say={say}
          />
        </details>
        <details onToggle={(event) => setNotebookOpen(event.currentTarget.open)}>
          <summary>{t('reader.notebook')}</summary>
          {/* Rendered only while open: a reader with a thousand highlights would otherwise
                render them all again at every page turn (bench/reader-open.ts). */}
          {notebookOpen ? (
            <ReaderNotebook
              annotations={notebook.annotations}
              partTitle={partTitle}
              onHighlight={notebook.highlightSelection}
              onBookmark={notebook.bookmarkPage}
              onMove={notebook.moveToHighlight}
              onOpen={(annotation) => {
                showBook();
                void openPart(annotation.part, {
                  at: 'offset',
                  offset: annotation.located?.start ?? 0,
                });
              }}
              onNote={notebook.changeNote}
              onRemove={notebook.remove}
              onExport={notebook.exportNotes}
            />
          ) : null}
        </details>
        {printPageCount(view.printPages) > 0 ? (
          <details>
            <summary>{t('reader.goToPage')}</summary>
            <ReaderGoToPage
              pages={view.printPages}
              onGo={(page) => {
                const target = pageTarget(view.printPages, page);
                void openPart(
                  target.part,
                  target.anchor
                    ? { at: 'fragment', id: target.anchor }
                    : { at: 'progression', progression: target.progression },
                ).then(() => say(t('reader.goToPage.shown', { page: printedLabel(page) })));
              }}
            />
          </details>
        ) : null}
        <details>
          <summary>{t('reader.display')}</summary>
          {settings ? (
            <ReaderDisplaySettings
              settings={settings}
              onChange={onSettings}
              isPdf={isPdf}
              fixed={fixed}
            />
          ) : null}
        </details>
        <DrmSummary
          drm={{
            ...view.drm,
            copy: { ...view.drm.copy, used: used.copy },
            print: { ...view.drm.print, used: used.print },
          }}
          offline={offlineStatus}
        />
        <p className="reader__keys">{t('reader.keys')}</p>
      </section>
    </>
  );
}
