import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { cartButton } from '#domain/commerce/cart-button.ts';
import { useT } from '#web/i18n/use-t.ts';

/**
 * The product page's cart button (spec 1 §4 Cart button): Add To Cart, View Cart when the
 * selected offering is the one in the cart, Update Cart when another one is selected. What
 * is in the cart is asked after hydration (GET /api/cart): anonymous product pages are shared,
 * so the server cannot write it into them.
 */
export function CartButton({
  productId,
  formId,
  initialSelectedId,
  ready,
}: {
  productId: number;
  formId: string;
  initialSelectedId: number | null;
  ready: boolean;
}) {
  const t = useT();
  const [cartOfferingId, setCartOfferingId] = useState<number | null>(null);
  const [selectedId, setSelectedId] = useState(initialSelectedId);
  // Asked again after every navigation: adding redirects back to this same page.
  const { key } = useLocation();
  useEffect(() => {
    void key;
    let live = true;
    fetch('/api/cart', {
      credentials: 'same-origin',
      headers: { Accept: 'application/vnd.api+json' },
    })
      .then((response) => (response.ok ? response.json() : null))
      .then(
        (body: { data?: { attributes: { productId: number; offeringId: number } }[] } | null) => {
          const line = body?.data?.find((item) => item.attributes.productId === productId);
          if (live) setCartOfferingId(line?.attributes.offeringId ?? null);
        },
      )
      .catch(() => undefined);
    const form = document.getElementById(formId);
    const onChange = (event: Event) => {
      const input = event.target as HTMLInputElement;
      if (input.name === 'offeringId') setSelectedId(Number(input.value));
    };
    form?.addEventListener('change', onChange);
    return () => {
      live = false;
      form?.removeEventListener('change', onChange);
    };
  }, [productId, formId, key]);
  const state = cartButton({ cartOfferingId, selectedOfferingId: selectedId });
  if (state === 'view') {
    return (
      <Link to="/cart" className="button button--primary">
        {t('cart.view')}
      </Link>
    );
  }
  return (
    <button type="submit" className="button button--primary" disabled={!ready}>
      {t(state === 'update' ? 'cart.update' : 'cart.add')}
    </button>
  );
}
