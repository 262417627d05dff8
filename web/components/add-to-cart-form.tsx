import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import type { OfferingPanel } from '#domain/catalog/offering-selection.ts';
import type { ProductOffering } from '#domain/catalog/service.ts';
import { useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { CartButton } from './cart-button.tsx';
import { OfferingOptions } from './offering-options.tsx';

/**
 * The offering options and the cart button of a product page (spec 1 §4). Posts to the cart
 * without leaving the page; a failure opens 'Unable to Add to Cart' with the reason.
 */
export function AddToCartForm({
  productId,
  productPath,
  offerings,
  panel,
  selectedId,
}: {
  productId: number;
  productPath: string;
  offerings: ProductOffering[];
  panel: OfferingPanel;
  selectedId: number | null;
}) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const fetcher = useFetcher<{ error?: string }>();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.error) setError(fetcher.data.error);
  }, [fetcher.state, fetcher.data]);
  return (
    <>
      <fetcher.Form method="post" action="/cart" id="offering-form" className="stack">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="next" value={productPath} />
        <OfferingOptions offerings={offerings} panel={panel} selectedId={selectedId} />
        <CartButton
          productId={productId}
          formId="offering-form"
          initialSelectedId={selectedId}
          // A shared page gets its CSRF token after hydration: no post before it arrives.
          ready={csrfToken !== null}
        />
      </fetcher.Form>
      <Dialog.Root open={error !== null} onOpenChange={(open) => !open && setError(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog__overlay" />
          <Dialog.Content className="dialog" aria-describedby="cart-error-text">
            <Dialog.Title className="dialog__title">{t('cart.error.title')}</Dialog.Title>
            <p id="cart-error-text">{error ? t(error) : null}</p>
            <div className="button-row">
              <Dialog.Close className="button button--primary">{t('sheet.close')}</Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}
