import { useState } from 'react';
import { useT } from '#web/i18n/use-t.ts';
import { ButtonNotify, useButtonNotify } from '#web/utils/button-notify.tsx';
import { addCartItem, type CartItem } from '#web/utils/cart-document.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { CartErrorDialog } from './cart-error-dialog.tsx';

/**
 * The product side sheet's cart button (spec 1 §4 Cart button, Shelf button): Add To Cart
 * posts the selected offering, and the button then reads View Cart, which opens the cart
 * sheet. A refused add opens 'Unable to Add to Cart' with the reason; the cart is as it was.
 * It stays one focusable button throughout, so focus is not lost while it changes, and
 * button-notify says 'Success' after an add (spec 1 §4).
 */
export function SheetCartButton({
  state,
  offeringId,
  courseId,
  onAdded,
  onViewCart,
}: {
  state: 'add' | 'view';
  offeringId: number | null;
  courseId: number | null;
  onAdded: (item: CartItem) => void;
  onViewCart: () => void;
}) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, notify] = useButtonNotify();

  async function add() {
    if (!csrfToken || offeringId === null || pending) return;
    setPending(true);
    const result = await addCartItem(csrfToken, { offeringId, courseId });
    setPending(false);
    if (result.ok) {
      onAdded(result.value);
      notify('success');
      return;
    }
    // spec 2 §8: an add to cart failure is reported as 'Offering Options Error: {cause}'.
    console.warn(`Offering Options Error: ${result.message ?? 'request failed'}`);
    setError(result.message ?? t('error.generic'));
  }

  return (
    <>
      <div className="button-row">
        {state === 'view' ? (
          <button
            type="button"
            className="button button--primary"
            aria-haspopup="dialog"
            onClick={onViewCart}
          >
            {t('cart.view')}
          </button>
        ) : (
          <button
            type="button"
            className="button button--primary"
            disabled={!csrfToken || offeringId === null}
            aria-disabled={pending}
            aria-busy={pending}
            onClick={() => void add()}
          >
            {t('cart.add')}
          </button>
        )}
      </div>
      <ButtonNotify kind={notice} />
      <CartErrorDialog message={error} onClose={() => setError(null)} />
    </>
  );
}
