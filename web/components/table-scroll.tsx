import type { ReactNode } from 'react';

/**
 * A wide table's own scrolling box (issue 39, axe `scrollable-region-focusable`): on a narrow
 * screen the table scrolls sideways inside it, and the keyboard scrolls it once it has focus,
 * so it is focusable and named after the table (WCAG 2.1.1).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than the screen scrolls from the keyboard only when its box takes focus
    <section className="table-scroll" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
