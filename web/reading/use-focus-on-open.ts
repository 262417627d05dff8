import { useEffect } from 'react';

/**
 * Keyboard and screen reader users start in the book (issue 13): the reading area takes the
 * focus when it first appears, if the focus is still nowhere (on the page's body).
 */
export function useFocusOnOpen(box: { current: HTMLElement | null }, enabled: boolean): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the view first shows
  useEffect(() => {
    const focused = document.activeElement;
    if (enabled && (!focused || focused === document.body))
      box.current?.focus({ preventScroll: true });
  }, []);
}

/** Focuses the element of this id once the next frame is drawn (after a render). */
export function focusSoon(id: string): void {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}
