// Work a page starts by itself after hydration (its cart, its form token) waits until the
// browser has a moment, so that it does not lengthen hydration's last task: on a phone that
// task is what delays the first tap and the cover's paint (issue 13). Browsers without
// requestIdleCallback (Safari) run it at the next turn.

/** Runs `task` when the browser is idle, at the latest after `timeout` ms; returns a cancel. */
export function whenIdle(task: () => void, timeout = 1000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(() => task(), { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 0);
  return () => window.clearTimeout(id);
}
