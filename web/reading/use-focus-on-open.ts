import { useEffect } from 'react';

/**
 * Keyboard and screen reader users start in the book (issue 13): the reading area takes the
 * focus when it first appears, if the focus is still nowhere (on the page's body).
 */
export function useFocusOnOpen(box: { current: HTMLElement | null }, enabled: boolean): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the view first shows
  useEffect(() => {
    const focused = document.activeElement;
    if (!enabled || (focused && focused !== document.body)) return;
    const el = box.current;
    el?.focus({ preventScroll: true });
    // The book's page whole on the screen, under the reader's bar: the store's header and
    // banners above it scroll away (the page ran below a laptop's screen).
    if (el && el.getBoundingClientRect().bottom > window.innerHeight + 1)
      el.closest('.reader__main')?.scrollIntoView({ block: 'start' });
  }, []);
}
