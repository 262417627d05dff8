import { type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useNavigationType, useRevalidator } from 'react-router';
import { restoredScrollY } from '#web/shell/scroll-restoration.tsx';
import { useInnerHtml } from './inner-html.ts';
import { whenIdle } from './when-idle.ts';

let hydrated = false;

/** Called once, by the shell's first effect: from then on every list renders in the browser. */
export function pageHydrated(): void {
  hydrated = true;
}

/**
 * A list of plain markup (product cards: text, images and `data-app-link` anchors, no state
 * and no handlers) that the page keeps as the server wrote it when it hydrates, instead of
 * rendering every card again to compare. On the search page that was most of hydration: 80
 * results are about 1,100 elements and 400 messages (issue 13, Lighthouse's blocking time).
 *
 * `version` names what the items show (the products and the language). A list mounted after
 * hydration (a client navigation), or whose version has changed since, renders its items as
 * usual: `items` is called only then (and on the server), so a page can keep the list's data
 * packed until it is needed (web/utils/packed.ts); `count` is how many items there are.
 * `items` is null when the browser's copy of the page's data does not carry them (they were
 * the server's only, web/utils/server-only.ts): should the list have to render in the browser,
 * the route's data is loaded again, and the list is empty until it arrives.
 *
 * With `firstPaint`, the server writes only that many items as elements. It writes the others
 * in batches of the same size, each a list of its own inside `<noscript>`: a browser without
 * JavaScript shows them as they are, and a browser with it reads them as text, which costs
 * almost nothing to parse. Once the page has hydrated, the batches move into the list one at
 * a time, when the browser is idle. On a phone, 80 results parsed, styled and laid
 * out while the page loads were several long tasks after the first paint; the first few are
 * what the screen shows.
 */
export function ServerMarkup({
  as: List,
  version,
  className,
  start,
  firstPaint,
  count,
  items: renderItems,
}: {
  as: 'ol' | 'ul';
  version: string;
  className?: string;
  start?: number;
  firstPaint?: number;
  count: number;
  items: (() => ReactNode[]) | null;
}) {
  const id = useId();
  const [kept, setKept] = useState(() => ({
    version,
    html:
      hydrated || typeof document === 'undefined'
        ? null
        : (document.getElementById(id)?.innerHTML ?? null),
  }));
  // Once the list shows something else, the server's markup is gone for good: the same
  // products again (back to the first search) render in the browser.
  if (kept.html !== null && kept.version !== version) setKept({ version, html: null });
  const html = useInnerHtml(kept.html ?? '');
  const keptNow = kept.html !== null && kept.version === version;
  // No firstPaint (or none to speak of): the server writes every item as an element.
  const size = firstPaint !== undefined && firstPaint > 0 ? firstPaint : count;
  const serverSide = typeof document === 'undefined';
  const items = (serverSide || !keptNow) && renderItems ? renderItems() : [];
  useDataAgain(!serverSide && !keptNow && !renderItems);
  // The batches are written by the server, and hydrated (as inert <noscript>) where it wrote
  // them; a list rendered in the browser has none.
  const batches = serverSide || keptNow ? laterBatches(count, size) : [];
  useLaterBatches(id, keptNow && batches.length > 0);
  useLaidOutForReturn(id);
  const batchesMarkup = batches.map((from) => (
    <noscript key={from} data-later-of={id}>
      {serverSide ? (
        <List className={className} start={List === 'ol' ? (start ?? 1) + from : undefined}>
          {items.slice(from, from + size)}
        </List>
      ) : null}
    </noscript>
  ));
  if (keptNow) {
    return (
      <>
        <List
          key="server"
          id={id}
          className={className}
          start={start}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the page's own markup, read back from the document the server wrote
          dangerouslySetInnerHTML={html}
        />
        {batchesMarkup}
      </>
    );
  }
  return (
    <>
      <List key="browser" id={id} className={className} start={start}>
        {serverSide ? items.slice(0, size) : items}
      </List>
      {batchesMarkup}
    </>
  );
}

/**
 * A list may skip laying out the items out of sight (`content-visibility: auto`, app.css: search
 * results after the first six), each then counted at an estimated height. A return to the list
 * (back or forward in the browser: React Router restores the position in its own layout effect,
 * which runs after this one) or a reload further down must reach the same item, so the list is
 * laid out whole (`data-laid-out`) until the browser is next idle; an item once laid out keeps
 * its height (`contain-intrinsic-size: auto`).
 */
function useLaidOutForReturn(id: string): void {
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    // The first page of a visit is not a return; its later items join while the page is idle.
    if (!hydrated || navigationType !== 'POP') return;
    const list = document.getElementById(id);
    if (!list) return;
    list.dataset.laidOut = '';
    return whenIdle(() => delete list.dataset.laidOut);
  }, [id, navigationType]);
}

/** Loads the route's data again, once, when `needed` (the list's items are not in it). */
function useDataAgain(needed: boolean): void {
  const revalidator = useRevalidator();
  const asked = useRef(false);
  useEffect(() => {
    if (!needed || asked.current) return;
    asked.current = true;
    revalidator.revalidate().catch(() => undefined);
  }, [needed, revalidator]);
}

/** Where each batch after the first paint starts, in a list of `count` items. */
function laterBatches(count: number, size: number): number[] {
  const starts: number[] = [];
  for (let from = size; from < count; from += size) starts.push(from);
  return starts;
}

/**
 * After hydration, moves the server's later batches into the list, one batch per idle moment:
 * a batch is what the first paint showed (6 results, 4 tray cards), and its parse, style,
 * layout and paint stay a short task on a phone.
 */
function useLaterBatches(id: string, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    let cancel: (() => void) | null = null;
    const move = (): boolean => {
      const list = document.getElementById(id);
      const batch = document.querySelector<HTMLElement>(
        `noscript[data-later-of="${CSS.escape(id)}"]:not([data-moved])`,
      );
      if (!list || !batch) return false;
      batch.dataset.moved = '';
      const parsed = document.createElement('template');
      parsed.innerHTML = batch.textContent ?? '';
      list.append(...Array.from(parsed.content.firstElementChild?.children ?? []));
      return true;
    };
    // A reload or a return to a place further down than the first paint reaches: everything
    // now, then the place (the visitor is waiting for it, not for an idle moment).
    const restored = restoredScrollY();
    if (restored !== null && restored > window.scrollY) {
      const list = document.getElementById(id);
      if (list) list.dataset.laidOut = '';
      while (move()) {
        // each batch in turn
      }
      window.scrollTo(0, restored);
      return list ? whenIdle(() => delete list.dataset.laidOut) : undefined;
    }
    const next = () => {
      if (move()) cancel = whenIdle(next);
    };
    cancel = whenIdle(next);
    return () => cancel?.();
  }, [id, active]);
}
