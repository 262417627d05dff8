import { Link } from 'react-router';
import type { ProductCard } from '#domain/catalog/types.ts';
import { useT } from '#web/i18n/use-t.ts';

// Collection, ebundle and classroom item lists (spec 1 §2): an expand/collapse control that
// starts collapsed (a native disclosure, so it works without JavaScript), tiles with a type
// pill, title, cover and a details link; an empty text when there is nothing.
export function ProductItemList({
  items,
  emptyKey,
  layout = 'list',
}: {
  items: ProductCard[];
  emptyKey: 'list.collectionEmpty' | 'list.ebundleEmpty' | null;
  layout?: 'list' | 'classroom';
}) {
  const t = useT();
  if (items.length === 0) return emptyKey ? <p>{t(emptyKey)}</p> : null;
  return (
    <details className="item-list">
      <summary className="button button--secondary">
        {t('list.showItems', { count: items.length })}
      </summary>
      <ul className={layout === 'classroom' ? 'item-grid item-grid--classroom' : 'item-grid'}>
        {items.map((item) => (
          <li key={item.id} className="item-tile">
            <img src={`/covers/${item.id}.svg`} alt="" width={80} height={120} loading="lazy" />
            <div className="stack-sm">
              <p className="card__type">{t(`type.${item.productType}`)}</p>
              <p className="item-tile__title">{item.title}</p>
              <Link to={item.path} aria-label={t('list.details', { title: item.title })}>
                {t('card.seeDetails')}
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </details>
  );
}
