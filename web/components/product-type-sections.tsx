import { useId } from 'react';
import { collectionIcon, coursewareAccessSteps } from '#domain/catalog/product-type-rules.ts';
import type { ProductDetail } from '#domain/catalog/service.ts';
import { useT } from '#web/i18n/use-t.ts';
import { FeatureList } from './feature-list.tsx';
import { type ItemListEntry, ProductItemList } from './product-item-list.tsx';
import * as Tabs from './tabs.tsx';

export type TypeSectionsProduct = Pick<
  ProductDetail,
  | 'productType'
  | 'languageCode'
  | 'typeFeatures'
  | 'pcard10'
  | 'redemptionUrl'
  | 'isCodeless'
  | 'isUrlAccessCode'
> & { items: ItemListEntry[] };

// What classroom, collection, ebundle and courseware pages add (spec 1 §2 Other product page
// types). The product side sheet shows the same under its own headings (`layout="sheet"`,
// sections one level below the product title) and opens items in place (`onOpenItem`).
export function ProductTypeSections({
  product,
  layout = 'page',
  onOpenItem,
}: {
  product: TypeSectionsProduct;
  layout?: 'page' | 'sheet';
  onOpenItem?: (id: number) => void;
}) {
  const t = useT();
  const idPrefix = useId();
  const H2 = layout === 'sheet' ? 'h4' : 'h2';
  const H3 = layout === 'sheet' ? 'h5' : 'h3';
  if (product.productType === 'classroom') {
    return (
      <>
        <Tabs.Root defaultValue="classroom" className="tabs">
          <Tabs.List className="tabs__list" aria-label={t('classroom.featuresLabel')}>
            <Tabs.Trigger value="classroom" className="tabs__tab">
              {t('classroom.features')}
            </Tabs.Trigger>
            <Tabs.Trigger value="supplemental" className="tabs__tab">
              {t('classroom.supplemental')}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="classroom" className="tabs__panel">
            <FeatureList
              features={product.typeFeatures.classroom}
              language={product.languageCode}
            />
          </Tabs.Content>
          <Tabs.Content value="supplemental" className="tabs__panel">
            <FeatureList
              features={product.typeFeatures.supplemental}
              language={product.languageCode}
            />
          </Tabs.Content>
        </Tabs.Root>
        <section className="stack" aria-labelledby={`${idPrefix}classroom-howto`}>
          <H2 id={`${idPrefix}classroom-howto`}>{t('classroom.howTo')}</H2>
          <ol>
            <li>{t('classroom.step1')}</li>
            <li>{t('classroom.step2')}</li>
            <li>{t('classroom.step3')}</li>
            <li>{t('classroom.step4')}</li>
          </ol>
        </section>
        <section className="stack" aria-labelledby={`${idPrefix}classroom-items`}>
          <H2 id={`${idPrefix}classroom-items`}>{t('classroom.items')}</H2>
          <ProductItemList
            items={product.items}
            emptyKey={null}
            layout="classroom"
            onOpenItem={onOpenItem}
          />
        </section>
      </>
    );
  }
  if (product.productType === 'collection') {
    const icon = collectionIcon(product.items.length);
    return (
      <section className="stack" aria-labelledby={`${idPrefix}collection-count`}>
        <H2 id={`${idPrefix}collection-count`} className="collection-count">
          <span className="collection-count__icon" data-icon={icon} aria-hidden="true">
            {icon === '9_plus' ? '9+' : icon}
          </span>
          {t('collection.count', { count: product.items.length })}
        </H2>
        <p>{t('collection.subscriptionNote')}</p>
        {product.typeFeatures.collection?.length ? (
          <>
            <H3>{t('collection.features')}</H3>
            <FeatureList
              features={product.typeFeatures.collection}
              language={product.languageCode}
            />
          </>
        ) : null}
        <ProductItemList
          items={product.items}
          emptyKey="list.collectionEmpty"
          onOpenItem={onOpenItem}
        />
      </section>
    );
  }
  if (product.productType === 'ebundle') {
    return (
      <ProductItemList items={product.items} emptyKey="list.ebundleEmpty" onOpenItem={onOpenItem} />
    );
  }
  if (product.productType === 'courseware') {
    const steps =
      coursewareAccessSteps(product) === 3
        ? ['courseware.step.buy', 'courseware.step.goShelf', 'courseware.step.accessNow']
        : [
            'courseware.step.buy',
            'courseware.step.findCode',
            'courseware.step.copyCode',
            'courseware.step.enterCode',
          ];
    return (
      <section className="stack" aria-labelledby={`${idPrefix}courseware-howto`}>
        {product.pcard10 ? <p>{t('courseware.isbn', { isbn: product.pcard10 })}</p> : null}
        {product.redemptionUrl ? (
          <p>
            <a href={product.redemptionUrl} target="_blank" rel="noopener noreferrer">
              {t('courseware.redemption')}
            </a>
          </p>
        ) : null}
        <H2 id={`${idPrefix}courseware-howto`}>{t('courseware.howTo')}</H2>
        <ol>
          {steps.map((step) => (
            <li key={step}>{t(step)}</li>
          ))}
        </ol>
        <p>{t('courseware.noStudyTools')}</p>
      </section>
    );
  }
  return null;
}
