import type { ProductCard as ProductCardData } from '#domain/catalog/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import { ServerMarkup } from '#web/utils/server-markup.tsx';
import { cardsVersion, ProductCard, useCardWords } from './product-card.tsx';

export function ProductTray({
  titleId,
  products,
}: {
  titleId: string;
  products: ProductCardData[];
}) {
  const t = useT();
  const words = useCardWords();
  const headingId = `tray-${titleId.replace(/\W+/g, '-')}`;
  return (
    <section className="tray" aria-labelledby={headingId}>
      <h2 id={headingId}>{t(titleId)}</h2>
      {products.length === 0 ? (
        <p>{t('tray.empty')}</p>
      ) : (
        <ServerMarkup
          as="ul"
          className="tray__list"
          version={cardsVersion(
            words.locale,
            products.map((product) => product.id),
          )}
          // Two rows on a phone; the others follow when the page is idle (ServerMarkup).
          firstPaint={4}
          count={products.length}
          items={() =>
            products.map((product) => (
              <li key={product.id}>
                <ProductCard product={product} words={words} />
              </li>
            ))
          }
        />
      )}
    </section>
  );
}
