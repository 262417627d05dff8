import { useEffect, useRef } from 'react';
import { useNavigation } from 'react-router';

/**
 * After a form is sent and the page answers with its refusals, the first one gets the focus
 * (issue 20's walk: a screen reader heard nothing, focus stayed on the button): a form-level
 * alert, or else the first field marked invalid, whose label and message are then read out.
 * Every form of the site goes through it, from the shell.
 */
export function useFocusFirstError(): void {
  const navigation = useNavigation();
  const sent = useRef(false);
  useEffect(() => {
    if (navigation.state === 'submitting') {
      sent.current = true;
      return;
    }
    if (navigation.state !== 'idle' || !sent.current) return;
    sent.current = false;
    const main = document.getElementById('main');
    const first = main?.querySelector<HTMLElement>(
      '[role="alert"], [aria-invalid="true"]:not([type="hidden"])',
    );
    if (!first) return;
    if (!first.matches('input, select, textarea, button, a[href], [tabindex]')) {
      first.tabIndex = -1;
    }
    first.focus();
  }, [navigation.state]);
}
