import { type Ref, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { BookLanguage, ReaderPart } from '#domain/reading/types.ts';
import { FIXED_PAGE_FALLBACK } from '#domain/reading/xhtml-content.ts';
import { clearHit, findInText, markHit } from '#web/utils/text-ranges.client.ts';
import type { ViewHandle, ViewLocation } from './epub-view.tsx';
import { useFocusOnOpen } from './use-focus-on-open.ts';

// Pre-paginated pages of a fixed-layout EPUB (issue 16): each drawn at its own size in CSS
// pixels, as the publisher laid it out, and scaled whole to the space the reader has — one
// page, or two facing pages side by side. Zoom enlarges them past that; the area then
// scrolls. The page's text is real text (selection, search, screen readers), and each page is
// a box that clips, contains and isolates what the book placed in it (web/styles/app.css).
export function FixedPageView({
  ref,
  pages,
  zoom,
  label,
  language,
  hit = null,
  onLocation,
  autoFocus = false,
}: {
  ref: Ref<ViewHandle>;
  /** In reading order: one page, or the two of a spread. */
  pages: ReaderPart[];
  /** 1 fits the pages in the area; more enlarges them. */
  zoom: number;
  label: string;
  language: BookLanguage | null;
  /** A search hit to mark: the nth occurrence of the query on one of these pages. */
  hit?: { part: number; query: string; occurrence: number } | null;
  onLocation(location: ViewLocation): void;
  autoFocus?: boolean;
}) {
  const box = useRef<HTMLElement>(null);
  const [area, setArea] = useState<{ width: number; height: number } | null>(null);

  useLayoutEffect(() => {
    const el = box.current!;
    const measure = () => {
      setArea({ width: el.clientWidth, height: el.clientHeight });
      // The pages fill the screen below the reader's bar: on opening, or when the window
      // changes (a phone turned), bring that into view when the pages' bottom is not.
      if (el.getBoundingClientRect().bottom > window.innerHeight + 1) {
        el.closest('.reader__main')?.scrollIntoView({ block: 'start' });
      }
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useFocusOnOpen(box, autoFocus);

  const shown = pages.map((p) => p.index).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page or spread shown
  useLayoutEffect(() => {
    box.current?.scrollTo(0, 0);
    onLocation({ page: 0, pageCount: 1, progression: 0 });
  }, [shown]);

  // The search hit is marked on its page as in a reflowable chapter, and brought into view
  // when the pages are zoomed past the area; the pages' area keeps the focus.
  const hitPart = hit?.part ?? null;
  const hitQuery = hit?.query ?? null;
  const hitOccurrence = hit?.occurrence ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: again for each page shown and each hit
  useLayoutEffect(() => {
    const drawing = box.current?.querySelector(
      `.reader-fixed__page[data-part="${hitPart}"] .reader-fixed__drawing`,
    );
    const range =
      drawing && hitQuery !== null ? findInText(drawing, hitQuery, hitOccurrence) : null;
    if (!range) return clearHit();
    markHit(range);
    if (zoom > 1) {
      range.startContainer.parentElement?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }, [shown, hitPart, hitQuery, hitOccurrence]);

  useImperativeHandle(
    ref,
    () => ({
      // A page is turned whole: the reader opens the next page or spread.
      next: () => false,
      previous: () => false,
      progression: () => 0,
      reached: (id) => !!box.current?.querySelector(`#${CSS.escape(id)}`),
      show() {},
    }),
    [],
  );

  const sizes = pages.map((p) => p.page ?? FIXED_PAGE_FALLBACK);
  const width = sizes.reduce((sum, size) => sum + size.width, 0);
  const height = Math.max(...sizes.map((size) => size.height));
  const fit = area ? Math.min(area.width / width, area.height / height) : 0;
  const scale = fit * zoom;

  return (
    <section
      ref={box}
      className="reader-text reader-text--fixed"
      data-zoomed={zoom > 1 ? '' : undefined}
      // Focusable, so the keyboard scrolls a zoomed page and a screen reader can start here.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
      tabIndex={0}
      aria-label={label}
      lang={language?.lang}
      dir={language?.dir}
    >
      <div className="reader-fixed__spread">
        {pages.map((page, i) => (
          <FixedPage key={page.index} page={page} size={sizes[i]!} scale={scale} />
        ))}
      </div>
    </section>
  );
}

function FixedPage({
  page,
  size,
  scale,
}: {
  page: ReaderPart;
  size: { width: number; height: number };
  scale: number;
}) {
  // One object per page: React sets innerHTML again whenever this prop is a new object.
  const content = useMemo(() => ({ __html: page.html }), [page.html]);
  return (
    <div
      className="reader-fixed__page"
      data-part={page.index}
      style={{ width: size.width * scale, height: size.height * scale }}
    >
      <div
        className="reader-fixed__drawing"
        style={{ width: size.width, height: size.height, transform: `scale(${scale})` }}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: rebuilt from an allow-list on the server (domain/reading/xhtml-content.ts)
        dangerouslySetInnerHTML={content}
      />
    </div>
  );
}
