import { Link } from 'react-router';
import type { ProductCard } from '#domain/catalog/types.ts';
import { CoverPicture } from '#web/catalog/cover-picture.tsx';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useT } from '#web/i18n/use-t.ts';

export type ItemListEntry = Pick<
  ProductCard,
  'id' | 'productType' | 'title' | 'languageCode' | 'path' | 'cover'
>;

// Collection, ebundle and classroom item lists (spec 1 §2): an expand/collapse control that
// starts collapsed (a native disclosure, so it works without JavaScript), tiles with a type
// pill, title, cover and a details link; an empty text when there is nothing. Given
// `onOpenItem` (the product side sheet), the details control is a button that opens the item
// in place instead of a link to its page.
export function ProductItemList({
  items,
  emptyKey,
  layout = 'list',
  onOpenItem,
}: {
  items: ItemListEntry[];
  emptyKey: 'list.collectionEmpty' | 'list.ebundleEmpty' | null;
  layout?: 'list' | 'classroom';
  onOpenItem?: (id: number) => void;
}) {
  const t = useT();
  const langOf = useContentLang();
  if (items.length === 0) return emptyKey ? <p>{t(emptyKey)}</p> : null;
  return (
    <details className="item-list">
      <summary className="button button--secondary">
        {t('list.showItems', { count: items.length })}
      </summary>
      <ul className={layout === 'classroom' ? 'item-grid item-grid--classroom' : 'item-grid'}>
        {items.map((item) => (
          <li key={item.id} className="item-tile">
            <CoverPicture
              productId={item.id}
              version={item.cover}
              width={80}
              alt=""
              loading="lazy"
            />
            <div className="stack-sm">
              <p className="card__type">{t(`type.${item.productType}`)}</p>
              <p className="item-tile__title" {...langOf(item.languageCode)}>
                {item.title}
              </p>
              {onOpenItem ? (
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={t('list.details', { title: item.title })}
                  onClick={() => onOpenItem(item.id)}
                >
                  {t('card.seeDetails')}
                </button>
              ) : (
                <Link to={item.path} aria-label={t('list.details', { title: item.title })}>
                  {t('card.seeDetails')}
                </Link>
              )}
            </div>
          </li>
        ))}
      </ul>
    </details>
  );
}
