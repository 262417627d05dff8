import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { usePersonalPart } from '#web/utils/personal-part.ts';
import { askCartLines } from './cart-lines.ts';

// How many items the shopper's cart holds, for the navbar's cart link (issue 19: where the
// navbar cart shows, it carries the item count). Asked in the browser (cart-lines.ts), as the
// product page's cart button is: anonymous pages are shared, so the server cannot write it into
// them. Asked again after each navigation and whenever a page changes the cart in place.

const CART_CHANGED = 'shelfmark:cart-changed';

/** Tells the navbar that the cart changed without a navigation (an add, a sheet's remove). */
export function announceCartChange(): void {
  window.dispatchEvent(new Event(CART_CHANGED));
}

/**
 * The number of items in the cart, or null until it is known (or when not asked). A logged-in
 * page composed from a stored one knows it from the start (its personal part, decision 043).
 */
export function useCartCount(enabled: boolean): number | null {
  const known = usePersonalPart()?.cartCount ?? null;
  const [count, setCount] = useState<number | null>(null);
  const [changes, setChanges] = useState(0);
  const { key } = useLocation();
  useEffect(() => {
    if (!enabled) return;
    const changed = () => setChanges((n) => n + 1);
    window.addEventListener(CART_CHANGED, changed);
    return () => window.removeEventListener(CART_CHANGED, changed);
  }, [enabled]);
  useEffect(() => {
    void key;
    void changes;
    if (!enabled) return;
    return askCartLines((lines) => {
      if (lines) setCount(lines.length);
    });
  }, [enabled, key, changes]);
  return count ?? known;
}
