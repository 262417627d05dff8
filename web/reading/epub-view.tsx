import {
  type Ref,
  useCallback,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
} from 'react';
import type { ReaderLayout, ReaderSettings } from '#domain/reading/reader-settings.ts';
import type { BookLanguage } from '#domain/reading/types.ts';
import { clearHit, findInText, markHit, rangeAtOffsets } from '#web/utils/text-ranges.client.ts';
import { useFocusOnOpen } from './use-focus-on-open.ts';

export type { ReaderLayout };

/** Where to land in a chapter that just loaded. */
export type PartStart =
  | { at: 'progression'; progression: number }
  | { at: 'end' }
  | { at: 'fragment'; id: string }
  | { at: 'occurrence'; query: string; occurrence: number }
  /** Characters from the start of the chapter's text (a highlight or bookmark, issue 16). */
  | { at: 'offset'; offset: number };

export type ViewLocation = { page: number; pageCount: number; progression: number };

export type ViewHandle = {
  /** The next page; false at the end of the chapter (the reader opens the next one). */
  next(): boolean;
  previous(): boolean;
  progression(): number;
  /** Whether the element with this id is on the page shown or before it (not after). */
  reached(id: string): boolean;
  /** Turns to the page showing this character of the chapter's text, unless it is shown. */
  show(offset: number): void;
};

// One EPUB chapter, as the server rendered it (real text in the page, so screen readers,
// selection and search work as on any page). Paginated: CSS columns as wide as the box,
// turned by scrolling sideways; scrolled: the box scrolls down.
export function EpubView({
  ref,
  html,
  label,
  layout,
  fontScale,
  look,
  start,
  onLocation,
  autoFocus = false,
  language,
}: {
  ref: Ref<ViewHandle>;
  html: string;
  label: string;
  /** The book's language and direction, for screen readers' voice and the text's flow. */
  language: BookLanguage | null;
  layout: ReaderLayout;
  fontScale: number;
  /** The settings besides size that reflow the text (issue 16): font, line spacing, margins. */
  look: Pick<ReaderSettings, 'font' | 'lineSpacing' | 'margins'>;
  start: PartStart;
  onLocation(location: ViewLocation): void;
  /** Take the focus when shown, unless the person has already put it somewhere. */
  autoFocus?: boolean;
}) {
  const box = useRef<HTMLElement>(null);
  const page = useRef(0);
  const keep = useRef<number | null>(null);

  const measure = useCallback(() => {
    const el = box.current!;
    if (layout === 'scrolled') {
      const height = Math.max(1, el.clientHeight);
      return {
        step: height,
        count: Math.max(1, Math.ceil((el.scrollHeight - 1) / height)),
      };
    }
    const gap = Number.parseFloat(getComputedStyle(el).columnGap) || 0;
    const step = el.clientWidth + gap;
    return { step, count: Math.max(1, Math.round((el.scrollWidth + gap) / step)) };
  }, [layout]);

  const report = useCallback(() => {
    const el = box.current;
    if (!el) return;
    const { count } = measure();
    if (layout === 'scrolled') {
      const max = Math.max(1, el.scrollHeight);
      // Scrolled to the end is the last page, however short the last screen is.
      const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
      const at = atEnd
        ? count - 1
        : Math.min(count - 1, Math.floor((el.scrollTop + 1) / Math.max(1, el.clientHeight)));
      onLocation({ page: at, pageCount: count, progression: Math.min(1, el.scrollTop / max) });
    } else {
      onLocation({ page: page.current, pageCount: count, progression: page.current / count });
    }
  }, [layout, measure, onLocation]);

  const turnTo = useCallback(
    (target: number) => {
      const el = box.current!;
      const { step, count } = measure();
      page.current = Math.min(count - 1, Math.max(0, target));
      if (layout === 'paginated') el.scrollLeft = page.current * step;
      report();
    },
    [layout, measure, report],
  );

  const goToProgression = useCallback(
    (progression: number) => {
      const el = box.current!;
      if (layout === 'scrolled') {
        el.scrollTop = progression * el.scrollHeight;
        report();
      } else {
        turnTo(Math.round(progression * measure().count));
      }
    },
    [layout, measure, report, turnTo],
  );

  const goToRect = useCallback(
    (rect: DOMRect) => {
      const el = box.current!;
      const outer = el.getBoundingClientRect();
      if (layout === 'scrolled') {
        el.scrollTop += rect.top - outer.top - 16;
        report();
      } else {
        turnTo(Math.floor((rect.left - outer.left + el.scrollLeft + 1) / measure().step));
      }
    },
    [layout, measure, report, turnTo],
  );

  const currentProgression = useCallback(() => {
    const el = box.current;
    if (!el) return 0;
    if (layout === 'scrolled') return el.scrollTop / Math.max(1, el.scrollHeight);
    return page.current / measure().count;
  }, [layout, measure]);

  useFocusOnOpen(box, autoFocus);

  // A new chapter: land where asked.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each chapter (html), with the start that came with it
  useLayoutEffect(() => {
    const el = box.current!;
    el.scrollLeft = 0;
    el.scrollTop = 0;
    page.current = 0;
    if (start.at !== 'occurrence') clearHit();
    if (start.at === 'progression') goToProgression(start.progression);
    else if (start.at === 'end') turnTo(measure().count - 1);
    else if (start.at === 'fragment') {
      const target = el.querySelector(`#${CSS.escape(start.id)}`);
      if (target) goToRect(target.getBoundingClientRect());
      else report();
    } else if (start.at === 'offset') {
      const range = rangeAtOffsets(el, start.offset, start.offset + 1);
      if (range) goToRect(range.getBoundingClientRect());
      else report();
    } else {
      const range = findInText(el, start.query, start.occurrence);
      if (range) {
        goToRect(range.getBoundingClientRect());
        markHit(range, el);
      } else {
        clearHit();
        report();
      }
    }
  }, [html, start]);

  const signature = `${layout}:${fontScale}:${look.font}:${look.lineSpacing}:${look.margins}`;
  // Same chapter, new layout, type size, font, spacing or margins: keep the place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the text reflows
  useLayoutEffect(() => {
    if (keep.current !== null) goToProgression(keep.current);
    keep.current = null;
  }, [signature]);

  useLayoutEffect(() => {
    const el = box.current!;
    let last = el.clientWidth;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth === last) return;
      last = el.clientWidth;
      goToProgression(currentProgression());
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [goToProgression, currentProgression]);

  useImperativeHandle(
    ref,
    () => ({
      show(offset) {
        const el = box.current;
        const range = el ? rangeAtOffsets(el, offset, offset + 1) : null;
        if (!el || !range) return;
        const rect = range.getBoundingClientRect();
        const outer = el.getBoundingClientRect();
        const shown =
          layout === 'scrolled'
            ? rect.top >= outer.top && rect.bottom <= outer.bottom
            : rect.left >= outer.left && rect.right <= outer.right + 1;
        if (!shown) goToRect(rect);
      },
      next() {
        const el = box.current!;
        clearHit();
        if (layout === 'scrolled') {
          if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2) return false;
          el.scrollTop += Math.round(el.clientHeight * 0.9);
          report();
          return true;
        }
        if (page.current >= measure().count - 1) return false;
        turnTo(page.current + 1);
        return true;
      },
      previous() {
        const el = box.current!;
        clearHit();
        if (layout === 'scrolled') {
          if (el.scrollTop <= 0) return false;
          el.scrollTop -= Math.round(el.clientHeight * 0.9);
          report();
          return true;
        }
        if (page.current <= 0) return false;
        turnTo(page.current - 1);
        return true;
      },
      progression: currentProgression,
      reached(id) {
        const el = box.current!;
        const target = el.querySelector(`#${CSS.escape(id)}`);
        if (!target) return false;
        const rect = target.getBoundingClientRect();
        const outer = el.getBoundingClientRect();
        if (layout === 'scrolled') return rect.top < outer.top + el.clientHeight;
        return (
          Math.floor((rect.left - outer.left + el.scrollLeft + 1) / measure().step) <= page.current
        );
      },
    }),
    [layout, measure, report, turnTo, currentProgression, goToRect],
  );

  // Before a layout or size change renders, remember where we are.
  const remember = () => {
    keep.current = currentProgression();
  };
  // One object per chapter: React 19 sets innerHTML again whenever this prop is a new object,
  // which threw away the page's DOM (the marked hit, a selection) on every render.
  const content = useMemo(() => ({ __html: html }), [html]);

  const previous = useRef(signature);
  if (previous.current !== signature) {
    previous.current = signature;
    remember();
  }

  return (
    <section
      ref={box}
      className={`reader-text reader-text--${layout}`}
      style={{ fontSize: `${fontScale}%` }}
      data-font={look.font}
      data-spacing={look.lineSpacing}
      data-margins={look.margins}
      // Focusable, so the keyboard scrolls it and a screen reader can start reading here.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
      tabIndex={0}
      aria-label={label}
      lang={language?.lang}
      dir={language?.dir}
      onScroll={layout === 'scrolled' ? report : undefined}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: rebuilt from an allow-list on the server (domain/reading/xhtml-content.ts)
      dangerouslySetInnerHTML={content}
    />
  );
}
