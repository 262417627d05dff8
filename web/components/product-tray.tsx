import type { ProductCard as ProductCardData } from '#domain/catalog/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import { ProductCard, useCardWords } from './product-card.tsx';

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
        <ul className="tray__list">
          {products.map((product) => (
            <li key={product.id}>
              <ProductCard product={product} words={words} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
