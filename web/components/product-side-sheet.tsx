import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { UNAVAILABILITY_MESSAGE } from '#domain/catalog/availability.ts';
import { sheetCartButton } from '#domain/commerce/cart-button.ts';
import { CoverPicture } from '#web/catalog/cover-picture.tsx';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import type { Cart } from '#web/utils/cart-document.ts';
import { fetchCatalogItem, type SheetItem } from '#web/utils/catalog-item-document.ts';
import { languageName } from '#web/utils/language-name.ts';
import { useReturnFocus } from '#web/utils/use-return-focus.ts';
import { BookFileList } from './book-file-list.tsx';
import { CartSideSheet } from './cart-side-sheet.tsx';
import { DetailsTable } from './details-table.tsx';
import { OfferingOptions } from './offering-options.tsx';
import { PriceText } from './price-text.tsx';
import { ProductTypeSections } from './product-type-sections.tsx';
import { SheetCartButton } from './sheet-cart-button.tsx';

// The product side sheet (spec 1 §2 Product side sheet): titled 'Product Details', loading
// first, then a details view by product type. Opening an item from inside the sheet remembers
// the previous one for Back; closing clears everything (the body unmounts with its trail, and
// with the cart sheet opened over it: spec 1 §4, they close together).
export function ProductSideSheet({
  productId,
  onClose,
  ecommerceCourseId = null,
}: {
  /** The product to show; null keeps the sheet closed. */
  productId: number | null;
  onClose: () => void;
  ecommerceCourseId?: number | null;
}) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root
      open={productId !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content
          className="sheet"
          aria-describedby={undefined}
          // Opened from any button, not a Dialog.Trigger: focus goes back to that button.
          {...returnFocus}
        >
          {productId !== null ? (
            <SheetBody
              key={productId}
              firstId={productId}
              ecommerceCourseId={ecommerceCourseId}
              onClose={onClose}
            />
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

type LoadState =
  | { status: 'loading' }
  | { status: 'error'; message: string | null }
  | { status: 'ready'; item: SheetItem };

function SheetBody({
  firstId,
  ecommerceCourseId,
  onClose,
}: {
  firstId: number;
  ecommerceCourseId: number | null;
  onClose: () => void;
}) {
  const t = useT();
  const [trail, setTrail] = useState<number[]>([firstId]);
  const currentId = trail[trail.length - 1]!;
  const previousId = trail.length > 1 ? trail[trail.length - 2]! : null;
  // Items seen in this opening: Back shows the previous one at once. Cleared on close.
  const cache = useRef(new Map<number, SheetItem>());
  const { state, retry } = useCatalogItem(currentId, cache.current, ecommerceCourseId);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const previousTitle = previousId === null ? null : cache.current.get(previousId)?.name;
  const [cartOpen, setCartOpen] = useState(false);
  // What this opening learned about the cart after loading its items (an add here, the cart
  // sheet's latest list): it wins over the items' userAvailability.inCart.
  const [inCartNow, setInCartNow] = useState<ReadonlyMap<number, boolean>>(new Map());
  const inCart = (item: SheetItem) => inCartNow.get(item.id) ?? item.userAvailability.inCart;
  const cartLoaded = (cart: Cart) => {
    const ids = new Set(cart.items.map((line) => line.productId));
    setInCartNow(new Map([...cache.current.keys()].map((id) => [id, ids.has(id)])));
  };

  // The control that was used (an item's button, Back) disappears with the view it belonged
  // to: keep focus inside the sheet, on its title.
  const moveTo = (next: number[]) => {
    setTrail(next);
    titleRef.current?.focus();
  };

  return (
    <div className="sheet__body">
      <header className="sheet__header">
        {previousId !== null ? (
          <button
            type="button"
            className="button button--ghost"
            aria-label={previousTitle ? t('sheet.backTo', { title: previousTitle }) : undefined}
            onClick={() => moveTo(trail.slice(0, -1))}
          >
            <span aria-hidden="true">←</span> {t('sheet.back')}
          </button>
        ) : null}
        <Dialog.Title ref={titleRef} tabIndex={-1} className="sheet__title">
          {t('sheet.title')}
        </Dialog.Title>
        <Dialog.Close className="button button--secondary">{t('sheet.close')}</Dialog.Close>
      </header>
      <output className={state.status === 'loading' ? 'sheet__loading' : 'visually-hidden'}>
        {state.status === 'loading' ? t('sheet.loading') : ''}
      </output>
      {state.status === 'error' ? (
        <div role="alert" className="alert alert--error stack-sm">
          <p>{t('sheet.error')}</p>
          <p>{state.message ?? t('error.generic')}</p>
          <p>
            <button type="button" className="button button--secondary" onClick={retry}>
              {t('sheet.retry')}
            </button>
          </p>
        </div>
      ) : null}
      {state.status === 'ready' ? (
        <SheetDetails
          key={state.item.id}
          item={state.item}
          inCart={inCart(state.item)}
          ecommerceCourseId={ecommerceCourseId}
          onOpenItem={(id) => {
            if (id !== currentId) moveTo([...trail, id]);
          }}
          onAdded={(productId) => setInCartNow((known) => new Map(known).set(productId, true))}
          onViewCart={() => setCartOpen(true)}
        />
      ) : null}
      <CartSideSheet
        open={cartOpen}
        onClose={() => setCartOpen(false)}
        onCloseAll={onClose}
        onCartLoad={cartLoaded}
      />
    </div>
  );
}

function useCatalogItem(
  id: number,
  cache: Map<number, SheetItem>,
  ecommerceCourseId: number | null,
): { state: LoadState; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<{ id: number; state: LoadState }>({
    id,
    state: { status: 'loading' },
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load on retry
  useEffect(() => {
    const cached = cache.get(id);
    if (cached) {
      setLoaded({ id, state: { status: 'ready', item: cached } });
      return;
    }
    setLoaded({ id, state: { status: 'loading' } });
    const controller = new AbortController();
    fetchCatalogItem(id, controller.signal, { ecommerceCourseId })
      .then((result) => {
        if (result.ok) cache.set(id, result.item);
        setLoaded({
          id,
          state: result.ok
            ? { status: 'ready', item: result.item }
            : { status: 'error', message: result.message },
        });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded({ id, state: { status: 'error', message: null } });
        console.warn('product side sheet: loading failed', error);
      });
    return () => controller.abort();
  }, [id, attempt, cache, ecommerceCourseId]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // Until the effect for a new id has run, show loading rather than the previous item.
  return { state: loaded.id === id ? loaded.state : { status: 'loading' }, retry };
}

function SheetDetails({
  item,
  inCart,
  ecommerceCourseId,
  onOpenItem,
  onAdded,
  onViewCart,
}: {
  item: SheetItem;
  inCart: boolean;
  ecommerceCourseId: number | null;
  onOpenItem: (id: number) => void;
  onAdded: (productId: number) => void;
  onViewCart: () => void;
}) {
  const t = useT();
  const locale = useLocale();
  const titleId = useId();
  const [selectedId, setSelectedId] = useState(item.defaultOfferingId);
  const { product } = item;
  // The product's own words are in its language (issue 13).
  const own = useContentLang()(product.language);
  const canonical = new URL(item.canonicalUrl);
  const details: [string, string | number | null][] = [
    [t('product.soldBy'), product.publisher],
    [t('product.isbns'), product.isbns.map((i) => i.value).join(', ')],
    [t('product.publishYear'), product.publishYear],
    [t('product.language'), languageName(locale, product.language)],
    [t('product.numPages'), product.numPages],
    [t('product.edition'), product.edition],
  ];
  const unavailable = item.channelAvailability.unavailableReason;
  const cartButton = sheetCartButton({
    isOwned: item.userAvailability.isOwned,
    free: item.userAvailability.showFree,
    inCart,
    offeringsShown: item.offeringPanel.visible,
  });
  return (
    <article className="stack" aria-labelledby={titleId}>
      <div className="sheet__summary">
        <CoverPicture
          productId={item.id}
          version={item.coverVersion}
          width={96}
          alt={t('product.coverAlt', { title: item.name })}
        />
        <div className="stack-sm">
          <p className="card__type">{t(`type.${item.productType}`)}</p>
          <h3 id={titleId} className="sheet__product-title" {...own}>
            {item.name}
          </h3>
          {product.subtitle && product.subtitle !== 'None' ? (
            <p {...own}>{product.subtitle}</p>
          ) : null}
          {product.authors ? <p>{t('card.byAuthor', { author: product.authors })}</p> : null}
          {item.isbn ? <p>{t('product.isbn', { isbn: item.isbn })}</p> : null}
          {item.userAvailability.isOwned ? (
            <p className="badge">{t('sheet.owned')}</p>
          ) : (
            <p className="product__price">
              <PriceText price={item.priceLabel} />
            </p>
          )}
        </div>
      </div>
      {unavailable ? (
        <p className="alert alert--error">
          {t(UNAVAILABILITY_MESSAGE[unavailable], { host: canonical.host })}
        </p>
      ) : null}
      <OfferingOptions
        offerings={item.offerings}
        // The cart may have changed since the item loaded: `locked` follows what the sheet
        // knows now (spec 1 §4: selection is disabled once the item is in the cart).
        panel={{ ...item.offeringPanel, disabled: false }}
        locked={inCart}
        selectedId={selectedId}
        onSelect={setSelectedId}
      />
      {cartButton ? (
        <SheetCartButton
          state={cartButton}
          offeringId={selectedId}
          courseId={ecommerceCourseId}
          onAdded={() => onAdded(item.id)}
          onViewCart={onViewCart}
        />
      ) : null}
      {item.description ? (
        <section className="stack-sm">
          <h4>{t('product.description')}</h4>
          <p className="prose" {...own}>
            {item.description}
          </p>
        </section>
      ) : null}
      <ProductTypeSections
        layout="sheet"
        onOpenItem={onOpenItem}
        product={{
          productType: item.productType,
          languageCode: product.language,
          typeFeatures: product.typeFeatures,
          pcard10: product.pcard10,
          redemptionUrl: item.redemptionUrl,
          isCodeless: product.isCodeless,
          isUrlAccessCode: product.isUrlAccessCode,
          items: item.collectionItems,
        }}
      />
      <BookFileList files={item.bookFiles} layout="sheet" />
      <section className="stack-sm">
        <h4>{t('product.additionalDetails')}</h4>
        <DetailsTable rows={details} />
      </section>
      <p>
        <a href={canonical.pathname}>{t('sheet.productPage')}</a>
      </p>
    </article>
  );
}
