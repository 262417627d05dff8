import { Link } from 'react-router';
import type { ProductCard as ProductCardData } from '#domain/catalog/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import { PriceText } from './price-text.tsx';

// A product tile for trays: type label (ribbon for COLLECTION and CLASSROOM), cover linking
// to the product route, title, subtitle unless 'None', author, pricing, 'See Details'.
export function ProductCard({ product }: { product: ProductCardData }) {
  const t = useT();
  const ribbon = product.productType === 'collection' || product.productType === 'classroom';
  const titleId = `product-${product.id}-title`;
  return (
    <article className="card" aria-labelledby={titleId}>
      <Link to={product.path} className="card__cover" tabIndex={-1} aria-hidden="true">
        <img src={`/covers/${product.id}.svg`} alt="" width={160} height={240} loading="lazy" />
      </Link>
      <p className={ribbon ? 'card__type card__type--ribbon' : 'card__type'}>
        {t(`type.${product.productType}`)}
      </p>
      <h3 className="card__title" id={titleId}>
        <Link to={product.path}>{product.title}</Link>
      </h3>
      {product.subtitle && product.subtitle !== 'None' ? (
        <p className="card__subtitle">{product.subtitle}</p>
      ) : null}
      {product.authors ? (
        <p className="card__author">{t('card.byAuthor', { author: product.authors })}</p>
      ) : null}
      <p className="card__price">
        <PriceText price={product.price} />
      </p>
      <Link
        to={product.path}
        className="button button--secondary"
        aria-label={t('card.seeDetailsOf', { title: product.title })}
      >
        {t('card.seeDetails')}
      </Link>
    </article>
  );
}
