import { useEffect, useRef, useState } from 'react';
import { Link, useFetcher, useLocation } from 'react-router';
import {
  defaultOffering,
  type OfferingPanel,
  offeringQuery,
} from '#domain/catalog/offering-selection.ts';
import type { ProductOffering } from '#domain/catalog/service.ts';
import { cartButton } from '#domain/commerce/cart-button.ts';
import type { BrowserPayments } from '#domain/commerce/payment-gateway.ts';
import type { SiteOrg } from '#domain/sites/types.ts';
import { OfferingOptions } from '#web/components/offering-options.tsx';
import { WalletButton } from '#web/components/wallet-button.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { ButtonNotify, useButtonNotify } from '#web/utils/button-notify.tsx';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { onDemand } from '#web/utils/on-demand.tsx';
import { announceCartChange } from './cart-count.ts';
import { askCartLines } from './cart-lines.ts';

const ReadingOptionDialog = onDemand(() =>
  import('#web/components/reading-option-dialog.tsx').then((module) => module.ReadingOptionDialog),
);
const CartErrorDialog = onDemand(() =>
  import('#web/components/cart-error-dialog.tsx').then((module) => module.CartErrorDialog),
);

/**
 * The offering options, the cart button and the wallet button of a product page (spec 1 §4).
 * Add To Cart, View Cart when the selected offering is the one in the cart (the options are
 * then locked), Update Cart when another one is selected. What is in the cart is asked after
 * hydration (cart-lines.ts): anonymous product pages are shared, so the server cannot write it
 * into them. Posts to the cart without leaving the page; a failure opens 'Unable to Add to
 * Cart' with the reason. A course-fee item opens 'Reading Option' first. An add is confirmed in
 * a live region with a link to the cart (issue 19), and the navbar's count is asked again.
 */
export function AddToCartForm({
  productId,
  productTitle,
  productPath,
  offerings,
  panel,
  selectedId: initialSelectedId,
  courseId,
  courseFeeSectionId,
  loggedIn,
  payments,
  platformFee,
  now,
}: {
  productId: number;
  productTitle: string;
  productPath: string;
  offerings: ProductOffering[];
  panel: OfferingPanel;
  selectedId: number | null;
  courseId: number | null;
  /** The user's course-fee section that includes this product (spec 1 §4 Course fee). */
  courseFeeSectionId: number | null;
  loggedIn: boolean;
  payments: BrowserPayments;
  platformFee: SiteOrg['platformFee'] | null;
  /** The page's time, for the day a rental would end if bought today. */
  now?: string;
}) {
  // The cart is asked after hydration: the button may then read View Cart or Update Cart.
  const t = useT(['cart.view', 'cart.update', 'cart.added', 'cart.added.view']);
  // Said once an add of this form is done, and until the choice changes (issue 19).
  const [confirmed, setConfirmed] = useState(false);
  const [notice, notify] = useButtonNotify();
  // An add of this form is under way: when it is done, View Cart takes the focus.
  const adding = useRef(false);
  const viewCart = useRef<HTMLAnchorElement>(null);
  const csrfToken = useCsrfToken();
  const fetcher = useFetcher<{ error?: string; params?: Record<string, string | number> }>();
  const [error, setError] = useState<{
    key: string;
    params?: Record<string, string | number>;
  } | null>(null);
  const [readingOption, setReadingOption] = useState(false);
  const [cartOfferingId, setCartOfferingId] = useState<number | null>(null);
  const [selectedId, setSelectedId] = useState(initialSelectedId);
  const form = useRef<HTMLFormElement>(null);
  // Asked again after every navigation and every add: the button then reads View Cart.
  const { key, search } = useLocation();
  const added = fetcher.state === 'idle' ? fetcher.data : undefined;
  useEffect(() => {
    void key;
    void added;
    return askCartLines((lines) => {
      const line = lines?.find((item) => item.productId === productId);
      const inCart = line?.offeringId ?? null;
      setCartOfferingId(inCart);
      // spec 1 §4 Offering selection default, the domain's rule now that the cart is known:
      // the offering in the cart comes first (one no longer sold falls back to the others).
      // With nothing in the cart the page's selection, perhaps the shopper's, stays.
      if (inCart !== null) {
        setSelectedId(
          defaultOffering({
            offerings,
            cartOfferingId: inCart,
            ...offeringQuery(new URLSearchParams(search)),
            loggedIn,
          }),
        );
      }
    });
  }, [productId, key, added, offerings, search, loggedIn]);
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.error) {
      adding.current = false;
      setError({ key: fetcher.data.error, params: fetcher.data.params });
    }
  }, [fetcher.state, fetcher.data]);
  const state = cartButton({ cartOfferingId, selectedOfferingId: selectedId });
  // Added: the button is replaced by View Cart, which takes the focus (it would otherwise fall
  // to the page's body), and button-notify says 'Success' (spec 1 §4).
  useEffect(() => {
    if (!adding.current || state !== 'view' || fetcher.state !== 'idle') return;
    adding.current = false;
    viewCart.current?.focus();
    notify('success');
    setConfirmed(true);
    announceCartChange();
  }, [state, fetcher.state, notify]);
  useEffect(() => {
    if (state !== 'view') setConfirmed(false);
  }, [state]);
  const selected = offerings.find((offering) => offering.id === selectedId) ?? null;
  const busy = fetcher.state !== 'idle';
  return (
    <>
      <fetcher.Form
        ref={form}
        method="post"
        action="/cart"
        id="offering-form"
        className="stack"
        onSubmit={(event) => {
          // A course-fee item asks first; the modal's Add to Cart submits for real.
          if (courseFeeSectionId !== null && !readingOption) {
            event.preventDefault();
            setReadingOption(true);
            return;
          }
          if (busy) {
            event.preventDefault();
            return;
          }
          adding.current = true;
        }}
      >
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="next" value={productPath} />
        {courseId ? <input type="hidden" name="courseId" value={courseId} /> : null}
        <OfferingOptions
          offerings={offerings}
          panel={panel}
          selectedId={selectedId}
          // spec 1 §4: the selection is locked once the item is in the cart.
          locked={state === 'view'}
          onSelect={setSelectedId}
          now={now}
        />
        <div className="cart-actions">
          {state === 'view' ? (
            <Link ref={viewCart} to="/cart/" className="button button--primary">
              {t('cart.view')}
            </Link>
          ) : (
            // While the add is sent the button stays focusable (aria-disabled, not disabled):
            // a disabled button would drop the focus to the page's body.
            <button
              type="submit"
              className="button button--primary"
              disabled={csrfToken === null}
              aria-disabled={busy || undefined}
            >
              {t(state === 'update' ? 'cart.update' : 'cart.add')}
            </button>
          )}
          {/* A course-fee material goes through 'Reading Option' first (spec 1 §4 Cart
              button); the wallet would skip it and sell what the course fee gives. */}
          {selected && state !== 'view' && courseFeeSectionId === null ? (
            <WalletButton
              offering={selected}
              productTitle={productTitle}
              productPath={productPath}
              courseId={courseId}
              loggedIn={loggedIn}
              csrfToken={csrfToken}
              payments={payments}
              platformFee={platformFee}
            />
          ) : null}
        </div>
        <ButtonNotify kind={notice} />
        {/* Always in the page, so that what is put in it is announced (issue 19). */}
        <output className="cart-added">
          {confirmed ? (
            <>
              {t('cart.added')} <Link to="/cart/">{t('cart.added.view')}</Link>
            </>
          ) : null}
        </output>
      </fetcher.Form>
      <ReadingOptionDialog
        when={readingOption}
        open={readingOption}
        courseFeeSectionId={courseFeeSectionId}
        onClose={() => setReadingOption(false)}
        onAdd={() => {
          form.current?.requestSubmit();
          setReadingOption(false);
        }}
      />
      <CartErrorDialog
        when={error !== null}
        message={error ? t(error.key, error.params) : null}
        onClose={() => setError(null)}
      />
    </>
  );
}
