import { type PointerEvent as ReactPointerEvent, useEffect, useRef } from 'react';
import { swipeTurn } from './swipe.ts';

const EDITABLE = 'input, textarea, select, [contenteditable="true"], [role="radio"]';

/**
 * Page turns from the keyboard and the finger (issue 5, issue 19), and Ctrl+P, which prints
 * through the reader (counted against the allowance). Returns the page area's pointer
 * handlers for a swipe.
 */
export function usePageTurns({
  next,
  previous,
  print,
}: {
  next(): void;
  previous(): void;
  /** Ctrl+P: the reader's print, or why there is none. */
  print(): void;
}) {
  const swipe = useRef<{ id: number; x: number; y: number; at: number } | null>(null);
  // Arrows and PageUp/PageDown turn pages anywhere on the page but in a field; with Shift
  // they are the browser's, to select.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.metaKey) return;
      if (event.ctrlKey) {
        if (event.key === 'p') {
          event.preventDefault();
          print();
        }
        return;
      }
      const target = event.target as Element | null;
      if (target?.closest?.(EDITABLE)) return;
      // Shift with an arrow moves the end of a selection (a highlight made by keyboard).
      if (event.shiftKey) return;
      if (event.key === 'ArrowRight' || event.key === 'PageDown') {
        event.preventDefault();
        next();
      } else if (event.key === 'ArrowLeft' || event.key === 'PageUp') {
        event.preventDefault();
        previous();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  // A swipe on the page turns it (issue 19): a quick, mostly sideways stroke of a finger or
  // pen; leftwards is the next page. A mouse drag selects text as before.
  const onStart = (event: ReactPointerEvent) => {
    if (event.pointerType === 'mouse' || !event.isPrimary) return;
    swipe.current = { id: event.pointerId, x: event.clientX, y: event.clientY, at: Date.now() };
  };
  const onEnd = (event: ReactPointerEvent) => {
    const start = swipe.current;
    swipe.current = null;
    if (!start || start.id !== event.pointerId) return;
    const turn = swipeTurn(event.clientX - start.x, event.clientY - start.y, Date.now() - start.at);
    if (turn === 'next') next();
    else if (turn === 'previous') previous();
  };
  const onCancel = () => {
    swipe.current = null;
  };
  return { onStart, onEnd, onCancel };
}
