import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { PDF_ZOOM_STEP, pdfZoomRange } from '#domain/reading/pdf-zoom.ts';
import type { ReaderSettings } from '#domain/reading/reader-settings.ts';
import type { ReaderView } from '#domain/reading/types.ts';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useT } from '#web/i18n/use-t.ts';
import { useOfflineReading } from '#web/reading/use-offline-reading.ts';
import { useInnerHtml } from '#web/utils/inner-html.ts';
import { ReaderCallRefused, ReadingClosed, readerApi } from '#web/utils/reader-api.ts';
import type { ViewHandle, ViewLocation } from './epub-view.tsx';
import { NoteDialog } from './note-dialog.tsx';
import type { PdfHandle } from './pdf-view.tsx';
import { ReaderActions } from './reader-actions.tsx';
import { ReaderBar } from './reader-bar.tsx';
import { ReaderBookView } from './reader-book-view.tsx';
import { ReaderFonts } from './reader-fonts.tsx';
import type { ReaderPrintHandle } from './reader-print.tsx';
import { ReaderPrintArea, useReaderPrinting } from './reader-printing.tsx';
import { ReaderTools } from './reader-tools.tsx';
import { ReaderZoom } from './reader-zoom.tsx';
import { chapterTextIn, shownTextRoots, usePdfTextInView } from './shown-text.ts';
import { useBookLinks } from './use-book-links.ts';
import { useBookSearch } from './use-book-search.ts';
import { useCopySelection } from './use-copy-selection.ts';
import { useNotebook } from './use-notebook.ts';
import { usePageTurns } from './use-page-turns.ts';
import { usePartNavigation } from './use-part-navigation.ts';
import { useReadAloudText } from './use-read-aloud-text.ts';
import { type UnsavedReading, useReaderSettings } from './use-reader-settings.ts';
import { useReaderStatus } from './use-reader-status.ts';
import { useSavedPlace } from './use-saved-place.ts';

export type ReaderData = Omit<ReaderView, 'grant'> & {
  grant: { via: string; expiresAt: string | null };
};

// The in-browser reader (issue 5): an EPUB chapter rendered on the server, or a PDF in
// pdf.js; contents, search, type size, paginated or scrolled, keyboard and swipe page turns, the
// place saved on the server for every device, DRM checks before a copy or a print, and a book
// that closes when access ends. This component holds them together; each lives in a file named
// for it:
// - the views: reader-book-view.tsx picks pdf-view.tsx (a page: pdf-page.tsx; its zoom:
//   use-pdf-zoom.ts, domain/reading/pdf-zoom.ts), fixed-page-view.tsx or epub-view.tsx;
// - above and under the page: reader-bar.tsx, reader-zoom.tsx, reader-actions.tsx;
// - the tools and panels beside it: reader-tools.tsx (contents, search, read aloud, notebook,
//   go to page, display settings in reader-display-settings.tsx);
// - what they do: use-part-navigation.ts, use-page-turns.ts, use-book-links.ts,
//   use-book-search.ts, use-notebook.ts, use-read-aloud-text.ts, use-copy-selection.ts,
//   reader-printing.tsx, use-offline-reading.ts, use-reader-settings.ts, use-saved-place.ts,
//   use-reader-status.ts, shown-text.ts.
export function Reader({
  view,
  userId,
  courseMemberId,
  csrfToken,
  chapterHref,
  backTo,
  savedSettings,
}: {
  view: ReaderData;
  /** The reader signed in (what waits on this device while offline is theirs). */
  userId: number;
  /** The reader's settings as saved on the server, null when never saved (issue 16). */
  savedSettings: ReaderSettings | null;
  courseMemberId: number | null;
  csrfToken: string;
  chapterHref(part: number): string;
  backTo: { href: string; label: string };
}) {
  const t = useT();
  // The book's title and chapter names are in the book's language (issue 13).
  const bookLang = useContentLang()(view.language?.lang);
  const api = useMemo(
    () => readerApi(view.product.id, csrfToken, courseMemberId, userId),
    [view.product.id, csrfToken, courseMemberId, userId],
  );
  // A fixed-layout page's zoom (issue 16).
  const [zoom, setZoom] = useState(1);
  // A PDF's zoom (issue 38): null until the reader chooses one, the zoom that draws its text
  // at a readable size (on a phone, wider than the screen).
  const [pdfZoom, setPdfZoom] = useState<number | null>(null);
  const [pdfReadableZoom, setPdfReadableZoom] = useState(1);
  const [location, setLocation] = useState<ViewLocation & { part: number }>({
    part: view.position.part,
    page: 0,
    pageCount: 1,
    progression: view.position.progression,
  });
  const [message, setMessage] = useState('');
  const sayLater = useRef<number | undefined>(undefined);
  // The reader's answers, in a live region. The same words again are news too (a second
  // press of Copy without a selection): the region is emptied first, so it is read again.
  const say = useCallback((text: string) => {
    setMessage('');
    window.clearTimeout(sayLater.current);
    sayLater.current = window.setTimeout(() => setMessage(text), 100);
  }, []);
  const pageArea = useRef<HTMLDivElement>(null);
  // What has been copied and printed: from the page, then from each answer of the server.
  const [used, setUsed] = useState({ copy: view.drm.copy.used, print: view.drm.print.used });
  const [closed, setClosed] = useState<string | null>(null);
  const printForm = useRef<ReaderPrintHandle>(null);
  // Print only where the book allows it (spec 1 §3 printAllowancePercent above 0).
  const printable = view.drm.printPercent !== null && view.drm.print.limit > 0;
  const epub = useRef<ViewHandle>(null);
  const pdf = useRef<PdfHandle>(null);
  const isPdf = view.format === 'pdf';

  const close = useCallback(
    (error: unknown) => {
      if (error instanceof ReadingClosed) setClosed(error.message || t('reader.closed'));
      // No network: what is not kept on this device cannot be shown (issue 16, offline).
      else if (error instanceof TypeError || !navigator.onLine) say(t('reader.offline.notKept'));
      else say(t('error.generic'));
    },
    [say, t],
  );

  const { part, facing, fixed, spread, start, loadingPart, openPart, next, previous } =
    usePartNavigation({ view, api, isPdf, pdf, epub, close, say });
  // One object for as long as the text is the same: a new one made React write the <style>
  // again at every render, and a new stylesheet (its fonts included) relaid out the whole page
  // at every page turn: 17,270 objects, 140–310 ms with a thousand notes in the notebook.
  const bookCss = useInnerHtml(view.bookCss ?? '');

  // What waits its moment to be saved: sent at once when the page goes (a reload right after a
  // change kept the old settings and place).
  const unsaved = useRef<UnsavedReading>({});
  const [settings, setSettings] = useReaderSettings({ savedSettings, api, say, unsaved });

  const links = useBookLinks({ api, pageArea, part, isPdf, openPart });

  const chapterText = () => chapterTextIn(pageArea.current);
  // A PDF's parts are its pages (issue 16): a highlight's offsets count its text layer's
  // characters, where each line break is a <br> (pdf-text-items.ts).
  const textOptions = { lineBreaks: isPdf };
  const shownRoots = () => shownTextRoots(pageArea.current, isPdf, part);
  /** Where the text of a part is on screen now, if it is. */
  const partRoot = (index: number): Element | null =>
    shownRoots().find(([shown]) => shown === index)?.[1] ?? null;
  // A PDF page's text layer is drawn after the page: its highlights are painted then.
  const [layersDrawn, setLayersDrawn] = useState(0);
  const onTextLayer = useCallback(() => setLayersDrawn((n) => n + 1), []);
  usePdfTextInView(pageArea, isPdf, layersDrawn);
  const refused = (error: unknown) => {
    if (error instanceof ReadingClosed) setClosed(error.message || t('reader.closed'));
    else say(error instanceof ReaderCallRefused ? error.message : t('error.generic'));
  };

  // Access that ends while the book is open closes it (the server refuses from then on too).
  useEffect(() => {
    if (!view.grant.expiresAt) return;
    const ms = new Date(view.grant.expiresAt).getTime() - Date.now();
    if (ms > 2 ** 31 - 1) return;
    const timer = setTimeout(() => setClosed(t('reader.expired')), Math.max(0, ms));
    return () => clearTimeout(timer);
  }, [view.grant.expiresAt, t]);

  const partTitle = useCallback(
    (index: number) => {
      if (isPdf) return t('reader.pageLabel', { page: index + 1 });
      return view.partTitles[index] || t('reader.partN', { n: index + 1 });
    },
    [isPdf, t, view.partTitles],
  );

  const readAloud = useReadAloudText({
    isPdf,
    part,
    location,
    partCount: view.partCount,
    epub,
    partRoot,
    chapterText,
    textOptions,
    openPart,
  });

  const notebook = useNotebook({
    api,
    say,
    isPdf,
    fixed,
    part,
    location,
    settings,
    layersDrawn,
    epub,
    shownRoots,
    partRoot,
    chapterText,
    textOptions,
    partTitle,
    openPart,
    refused,
    setUsed,
  });

  const offline = useOfflineReading({
    view,
    api,
    courseMemberId,
    part: location.part,
    say,
    openAt: (index, progression) => void openPart(index, { at: 'progression', progression }),
    onNotesSaved: notebook.onNotesSaved,
  });

  const swipe = usePageTurns({
    next,
    previous,
    print: () => {
      if (printable) printForm.current?.open();
      else say(t('reading.print.notAllowed'));
    },
  });

  const onLocation = useCallback(
    (where: ViewLocation) => {
      setLocation({ ...where, part: isPdf ? where.page : (part?.index ?? 0) });
    },
    [isPdf, part?.index],
  );
  const { status, printedLabel } = useReaderStatus({
    view,
    isPdf,
    fixed,
    shownPages: facing && spread.includes(facing.index) ? spread : [location.part],
    location,
    partTitle,
    epub,
  });

  useSavedPlace({
    api,
    from: view.position,
    location,
    isPdf,
    closed: closed !== null,
    close,
    unsaved,
  });

  const copySelection = useCopySelection({ api, pageArea, say, setUsed, countingFailed });

  /**
   * A copy or a print the server could not count: without a network, it says that counting
   * needs one (the text shown is kept; only the count is missing).
   */
  function countingFailed(error: unknown) {
    if (error instanceof TypeError || !navigator.onLine) say(t('reader.offline.needsNetwork'));
    else close(error);
  }

  const { printing, preparing, printPages, currentPrintPage, onPrinted } = useReaderPrinting({
    api,
    view,
    isPdf,
    pdf,
    epub,
    part,
    location,
    setUsed,
    say,
    countingFailed,
  });

  const { search, onPdfReady } = useBookSearch({ api, isPdf, pdf });

  if (closed) {
    return (
      <div className="reader stack">
        <h1 {...bookLang}>{view.product.title}</h1>
        <div className="alert alert--error" role="alert">
          <p>{closed}</p>
        </div>
        <p>
          <Link to={backTo.href} className="button button--primary">
            {backTo.label}
          </Link>
        </p>
      </div>
    );
  }

  return (
    <div className="reader">
      <ReaderFonts />
      <div className="reader__head">
        <div>
          <h1 className="reader__title" {...bookLang}>
            {view.product.title}
          </h1>
          {view.product.authors ? (
            <p className="reader__byline">{t('card.byAuthor', { author: view.product.authors })}</p>
          ) : null}
        </div>
        <Link to={backTo.href}>{backTo.label}</Link>
      </div>
      <div className="reader__layout">
        <ReaderTools
          view={view}
          bookLang={bookLang}
          isPdf={isPdf}
          fixed={fixed}
          chapterHref={chapterHref}
          currentPart={location.part}
          openPart={openPart}
          partTitle={partTitle}
          printedLabel={printedLabel}
          say={say}
          search={search}
          readAloud={readAloud}
          notebook={notebook}
          settings={settings}
          onSettings={setSettings}
          used={used}
          offlineStatus={offline.status}
        />
        <div className="reader__main stack-sm">
          {/* Always there, so that a screen reader hears it when the network goes. */}
          <output className="reader__offline">
            {offline.online ? '' : t('reader.offline.offline')}
          </output>
          <ReaderBar
            status={loadingPart ? t('reader.loading') : status}
            onPrevious={previous}
            onNext={next}
            zoom={
              fixed ? (
                <ReaderZoom zoom={zoom} max={3} step={0.5} fit="page" onZoom={setZoom} />
              ) : isPdf ? (
                <ReaderZoom
                  zoom={pdfZoom ?? pdfReadableZoom}
                  max={pdfZoomRange(pdfReadableZoom).max}
                  step={PDF_ZOOM_STEP}
                  fit="width"
                  onZoom={setPdfZoom}
                />
              ) : null
            }
          />
          {/* biome-ignore lint/a11y/noStaticElementInteractions: copying is checked against the allowance wherever it starts */}
          {/* biome-ignore lint/a11y/useKeyWithClickEvents: only delegates the book's own links, which Enter clicks too */}
          <div
            ref={pageArea}
            className="reader__page"
            data-theme={settings?.theme}
            onPointerDown={swipe.onStart}
            onPointerUp={swipe.onEnd}
            onPointerCancel={swipe.onCancel}
            onCopy={(event) => {
              event.preventDefault();
              void copySelection();
            }}
            onClick={links.onClick}
          >
            <NoteDialog html={links.note} language={view.language} onClose={links.closeNote} />
            {view.bookCss ? (
              // The publisher's styling, sanitised, scoped and layered on the server
              // (domain/reading/book-css.ts), which also guarantees it holds no '<'.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: CSS rebuilt from allow-lists on the server
              <style dangerouslySetInnerHTML={bookCss} />
            ) : null}
            <ReaderBookView
              view={view}
              courseMemberId={courseMemberId}
              settings={settings}
              part={part}
              facing={facing && spread.includes(facing.index) ? facing : null}
              zoom={zoom}
              pdfZoom={pdfZoom}
              onReadableZoom={setPdfReadableZoom}
              start={start}
              epub={epub}
              pdf={pdf}
              label={part ? t('reader.textOf', { chapter: partTitle(part.index) }) : ''}
              onLocation={onLocation}
              onTextLayer={onTextLayer}
              onPdfReady={onPdfReady}
              onPdfFailure={() => say(t('reader.pdfFailed'))}
            />
          </div>
          <ReaderActions
            onCopy={() => void copySelection()}
            print={
              printable
                ? {
                    ref: printForm,
                    pages: view.drm.print.pages,
                    left: Math.max(0, view.drm.print.limit - used.print),
                    busy: preparing,
                    current: currentPrintPage,
                    onPrint: (from: number, to: number) => void printPages(from, to),
                  }
                : null
            }
            chapters={
              !isPdf && part
                ? { part: part.index, count: view.partCount, hrefOf: chapterHref }
                : null
            }
            openPart={openPart}
          />
          <output className="reader__message" aria-live="polite">
            {message}
          </output>
        </div>
      </div>
      {printing ? (
        <ReaderPrintArea printing={printing} lang={view.language?.lang} onPrinted={onPrinted} />
      ) : null}
    </div>
  );
}
