import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '#i18n/format-money.ts';
import { announceCartChange } from '#web/commerce/cart-count.ts';
import { RemovedLinesNotice } from '#web/commerce/removed-lines-notice.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { type Cart, type CartItem, fetchCart, removeCartItem } from '#web/utils/cart-document.ts';
import { checkoutPath } from '#web/utils/checkout-path.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { useReturnFocus } from '#web/utils/use-return-focus.ts';
import { CartLineItem } from './cart-line-item.tsx';

// The cart side sheet (spec 1 §4, spec 2 §4 Product and cart sheets): it opens with a loading
// state and reloads the cart with its items, products and offerings; removing an item
// refreshes the cart. Over the product sheet it closes together with it: Back (and Escape)
// return to the product sheet, Close and a click beside the sheets close both.
export function CartSideSheet({
  open,
  onClose,
  onCloseAll,
  onCartLoad,
}: {
  open: boolean;
  /** Closes this sheet only. */
  onClose: () => void;
  /** Given when the sheet opens over the product sheet: closes both. */
  onCloseAll?: () => void;
  /** Called with the cart each time it has loaded (the product sheet follows what is in it). */
  onCartLoad?: (cart: Cart) => void;
}) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay dialog__overlay--raised" />
        <Dialog.Content
          className="sheet sheet--raised"
          aria-describedby={undefined}
          {...returnFocus}
          onPointerDownOutside={(event) => {
            if (!onCloseAll) return;
            event.preventDefault();
            onCloseAll();
          }}
        >
          {/* Mounted per opening, so every opening loads the cart afresh. */}
          {open ? (
            <CartSheetBody onClose={onClose} onCloseAll={onCloseAll} onCartLoad={onCartLoad} />
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

type LoadState =
  | { status: 'loading' }
  | { status: 'error'; message: string | null }
  | { status: 'ready'; cart: Cart };

function CartSheetBody({
  onClose,
  onCloseAll,
  onCartLoad,
}: {
  onClose: () => void;
  onCloseAll?: () => void;
  onCartLoad?: (cart: Cart) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const csrfToken = useCsrfToken();
  const { state, reload } = useCart(onCartLoad);
  const [removing, setRemoving] = useState<number | null>(null);
  const [removeFailed, setRemoveFailed] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);

  async function remove(item: CartItem) {
    if (!csrfToken || removing !== null) return;
    setRemoving(item.id);
    setRemoveFailed(false);
    const result = await removeCartItem(csrfToken, item.id);
    setRemoving(null);
    setRemoveFailed(!result.ok);
    if (result.ok) announceCartChange();
    // The list goes away while the cart reloads: keep focus in the sheet, on its title.
    titleRef.current?.focus();
    reload();
  }

  return (
    <div className="sheet__body">
      <header className="sheet__header">
        {onCloseAll ? (
          <button
            type="button"
            className="button button--ghost"
            aria-label={t('sheet.backTo', { title: t('sheet.title') })}
            onClick={onClose}
          >
            <span aria-hidden="true">←</span> {t('sheet.back')}
          </button>
        ) : null}
        <Dialog.Title ref={titleRef} tabIndex={-1} className="sheet__title">
          {t('cart.title')}
        </Dialog.Title>
        {onCloseAll ? (
          <button type="button" className="button button--secondary" onClick={onCloseAll}>
            {t('sheet.close')}
          </button>
        ) : (
          <Dialog.Close className="button button--secondary">{t('sheet.close')}</Dialog.Close>
        )}
      </header>
      <output className={state.status === 'loading' ? 'sheet__loading' : 'visually-hidden'}>
        {state.status === 'loading' ? t('cartSheet.loading') : ''}
      </output>
      {removeFailed ? (
        <p role="alert" className="alert alert--error">
          {t('cartSheet.error.remove')}
        </p>
      ) : null}
      {state.status === 'error' ? (
        <div role="alert" className="alert alert--error stack-sm">
          <p>{t('cartSheet.error.load')}</p>
          <p>{state.message ?? t('error.generic')}</p>
          <p>
            <button type="button" className="button button--secondary" onClick={reload}>
              {t('sheet.retry')}
            </button>
          </p>
        </div>
      ) : null}
      {state.status === 'ready' ? (
        <div className="stack">
          <RemovedLinesNotice removed={state.cart.removed} />
          {state.cart.items.length === 0 ? (
            <p>{t('checkout.error.emptyCart')}</p>
          ) : (
            <>
              <ul className="stack cart-lines">
                {state.cart.items.map((item) => (
                  <CartLineItem key={item.id} line={item}>
                    <button
                      type="button"
                      className="button button--secondary"
                      aria-label={t('cart.removeOf', { title: item.title })}
                      aria-disabled={removing !== null}
                      onClick={() => void remove(item)}
                    >
                      {t('cart.remove')}
                    </button>
                  </CartLineItem>
                ))}
              </ul>
              <p className="cart-subtotal">
                {t('label.colon', { label: t('cart.subtotal') })}{' '}
                <strong>
                  {formatMoney(locale, state.cart.subtotalCents, state.cart.currencyCode)}
                </strong>
              </p>
              <p>
                <Link to={checkoutPath(state.cart.items)} className="button button--primary">
                  {t('checkout.title')}
                </Link>
              </p>
            </>
          )}
          <p>
            <Link to="/cart/">{t('cartSheet.cartPage')}</Link>
          </p>
        </div>
      ) : null}
    </div>
  );
}

/** Loads the cart now and on every `reload`, showing loading again each time. */
function useCart(onLoad: ((cart: Cart) => void) | undefined) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  // The latest callback, without reloading the cart when the parent renders a new one.
  const onLoadRef = useRef(onLoad);
  useEffect(() => {
    onLoadRef.current = onLoad;
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load on reload
  useEffect(() => {
    setState({ status: 'loading' });
    const controller = new AbortController();
    fetchCart(controller.signal)
      .then((result) => {
        if (controller.signal.aborted) return;
        if (!result.ok) {
          setState({ status: 'error', message: result.message });
          return;
        }
        setState({ status: 'ready', cart: result.value });
        onLoadRef.current?.(result.value);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', message: null });
        console.warn('cart side sheet: loading failed', error);
      });
    return () => controller.abort();
  }, [attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, reload };
}
