import { useRef } from 'react';

/**
 * Focus handlers for a Radix dialog opened from any control rather than a Dialog.Trigger
 * (Radix only returns focus to its trigger): remember the control that had focus when the
 * dialog opened and return to it on close, while it is still on the page.
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      opener.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const control = opener.current;
      opener.current = null;
      if (!control?.isConnected) return;
      event.preventDefault();
      control.focus();
    },
  };
}
