import type { ReactNode } from 'react';
import type { AccessBadge } from '#domain/shelf/my-shelf.ts';
import { CoverPicture } from '#web/catalog/cover-picture.tsx';
import { useT } from '#web/i18n/use-t.ts';

/**
 * A material on My Shelf or a course section page (spec 1 §2 Shelf): the 'Free Access' (or course
 * fee) and 'Added To Cart' badges, the cover, the type pill, the title (a link the page supplies), a
 * line under it (section number or publisher) and the shelf button.
 */
export function MaterialTile({
  productId,
  cover,
  productType,
  badge = null,
  inCart,
  title,
  subline,
  action,
}: {
  productId: number;
  /** The product's cover version (domain/catalog/cover-version.ts). */
  cover: string;
  productType: string;
  /** 'Free Access', or 'Included in your course fee' (domain/shelf/my-shelf.ts accessBadgeOf). */
  badge?: AccessBadge | null;
  inCart: boolean;
  title: ReactNode;
  subline: string;
  action: ReactNode;
}) {
  const t = useT();
  return (
    <li className="shelf-tile">
      <div className="shelf-tile__badges">
        {badge ? <span className="badge">{t(`shelf.badge.${badge}`)}</span> : null}
        {inCart ? <span className="badge">{t('shelf.badge.cart')}</span> : null}
      </div>
      <CoverPicture productId={productId} version={cover} width={96} alt="" loading="lazy" />
      <p className="pill">{t(`type.${productType}`)}</p>
      <p className="item-tile__title">{title}</p>
      <p className="form-hint">{subline}</p>
      {action}
    </li>
  );
}
