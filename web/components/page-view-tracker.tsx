import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useCsrfToken } from '#web/utils/csrf-token.ts';

// spec 1 §2: a page view is tracked on every route change.
export function PageViewTracker() {
  const location = useLocation();
  const csrfToken = useCsrfToken();
  useEffect(() => {
    if (!csrfToken) return;
    const path = location.pathname + location.search;
    void fetch('/api/events/page-view', {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json', 'X-CSRFToken': csrfToken },
      body: JSON.stringify({ path }),
      keepalive: true,
      credentials: 'same-origin',
    }).catch(() => {
      // Analytics must never disturb the shopper.
    });
  }, [location.pathname, location.search, csrfToken]);
  return null;
}
