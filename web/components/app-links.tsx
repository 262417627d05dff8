import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/**
 * Plain `<a href>` links marked `data-app-link` navigate inside the app (no full reload), like
 * React Router's <Link>, through one listener for the whole document. Lists of a hundred
 * product cards use them: three <Link>s per card cost more to render than the rest of the card
 * (measured on the search page, issue 3).
 */
export function AppLinks() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      ) {
        return;
      }
      const anchor = (event.target as Element | null)?.closest?.('a[data-app-link]');
      if (
        !(anchor instanceof HTMLAnchorElement) ||
        anchor.target ||
        anchor.hasAttribute('download')
      ) {
        return;
      }
      const url = new URL(anchor.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      void navigate(url.pathname + url.search + url.hash);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
  return null;
}
