import type { Locale } from '#domain/accounts/language.ts';
import type { ProductCard as ProductCardData } from '#domain/catalog/types.ts';
import { CoverPicture } from '#web/catalog/cover-picture.tsx';
import { contentLang } from '#web/i18n/content-lang.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { PriceWords } from './price-text.tsx';

export type CardWords = { t: ReturnType<typeof useT>; locale: Locale };

/** What a list of cards says, asked once: a hundred results hydrate without a hundred hooks. */
export function useCardWords(): CardWords {
  return { t: useT(), locale: useLocale() };
}

/** What a list of cards shows, for <ServerMarkup>: the language and each card's product. */
export function cardsVersion(locale: Locale, productIds: number[]): string {
  return `${locale}:${productIds.join(',')}`;
}

// A product card (spec 1 §2 Search, cards and lists): type label (ribbon for COLLECTION and
// CLASSROOM), cover linking to the product route, title, subtitle unless 'None', author, the
// description when given (already cut to 30 words), pricing and 'See Details'. `tile` in trays,
// `row` in search results. Links are plain anchors handled by <AppLinks> (one listener, not
// three <Link>s per card).
export function ProductCard({
  product,
  layout = 'tile',
  headingLevel = 3,
  words,
}: {
  product: ProductCardData & { description?: string };
  layout?: 'tile' | 'row';
  headingLevel?: 2 | 3;
  /** The list's words (useCardWords), asked once for all its cards, not once per card. */
  words: CardWords;
}) {
  const { t, locale } = words;
  // The product's own words are in its language (issue 13).
  const own = contentLang(product.languageCode, locale);
  const ribbon = product.productType === 'collection' || product.productType === 'classroom';
  const titleId = `product-${product.id}-title`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const width = layout === 'tile' ? 160 : 96;
  return (
    <article className={layout === 'tile' ? 'card' : 'card card--row'} aria-labelledby={titleId}>
      {/* biome-ignore lint/a11y/useAnchorContent: the cover repeats the title link; it is hidden from assistive technology and the tab order */}
      <a
        href={product.path}
        data-app-link=""
        className="card__cover"
        tabIndex={-1}
        aria-hidden="true"
      >
        <CoverPicture
          productId={product.id}
          version={product.cover}
          width={width}
          alt=""
          loading="lazy"
        />
      </a>
      <div className="card__body">
        <p className={ribbon ? 'card__type card__type--ribbon' : 'card__type'}>
          {t(`type.${product.productType}`)}
        </p>
        <Heading className="card__title" id={titleId} {...own}>
          <a href={product.path} data-app-link="">
            {product.title}
          </a>
        </Heading>
        {product.subtitle && product.subtitle !== 'None' ? (
          <p className="card__subtitle" {...own}>
            {product.subtitle}
          </p>
        ) : null}
        {product.authors ? (
          <p className="card__author">{t('card.byAuthor', { author: product.authors })}</p>
        ) : null}
        {product.description ? (
          <p className="card__description" {...own}>
            {product.description}
          </p>
        ) : null}
        <p className="card__price">
          <PriceWords price={product.price} t={t} locale={locale} />
        </p>
        <a
          href={product.path}
          data-app-link=""
          className="button button--secondary"
          aria-label={t('card.seeDetailsOf', { title: product.title })}
        >
          {t('card.seeDetails')}
        </a>
      </div>
    </article>
  );
}
