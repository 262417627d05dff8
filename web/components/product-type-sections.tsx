import * as Tabs from '@radix-ui/react-tabs';
import { collectionIcon, coursewareAccessSteps } from '#domain/catalog/product-type-rules.ts';
import type { ProductDetail } from '#domain/catalog/service.ts';
import { useT } from '#web/i18n/use-t.ts';
import { FeatureList } from './feature-list.tsx';
import { ProductItemList } from './product-item-list.tsx';

// What classroom, collection, ebundle and courseware pages add (spec 1 §2 Other product page types).
export function ProductTypeSections({ product }: { product: ProductDetail }) {
  const t = useT();
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
            <FeatureList features={product.typeFeatures.classroom} />
          </Tabs.Content>
          <Tabs.Content value="supplemental" className="tabs__panel">
            <FeatureList features={product.typeFeatures.supplemental} />
          </Tabs.Content>
        </Tabs.Root>
        <section className="stack" aria-labelledby="classroom-howto">
          <h2 id="classroom-howto">{t('classroom.howTo')}</h2>
          <ol>
            <li>{t('classroom.step1')}</li>
            <li>{t('classroom.step2')}</li>
            <li>{t('classroom.step3')}</li>
            <li>{t('classroom.step4')}</li>
          </ol>
        </section>
        <section className="stack" aria-labelledby="classroom-items">
          <h2 id="classroom-items">{t('classroom.items')}</h2>
          <ProductItemList items={product.items} emptyKey={null} layout="classroom" />
        </section>
      </>
    );
  }
  if (product.productType === 'collection') {
    const icon = collectionIcon(product.items.length);
    return (
      <section className="stack" aria-labelledby="collection-count">
        <h2 id="collection-count" className="collection-count">
          <span className="collection-count__icon" data-icon={icon} aria-hidden="true">
            {icon === '9_plus' ? '9+' : icon}
          </span>
          {t('collection.count', { count: product.items.length })}
        </h2>
        <p>{t('collection.subscriptionNote')}</p>
        {product.typeFeatures.collection?.length ? (
          <>
            <h3>{t('collection.features')}</h3>
            <FeatureList features={product.typeFeatures.collection} />
          </>
        ) : null}
        <ProductItemList items={product.items} emptyKey="list.collectionEmpty" />
      </section>
    );
  }
  if (product.productType === 'ebundle') {
    return <ProductItemList items={product.items} emptyKey="list.ebundleEmpty" />;
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
      <section className="stack" aria-labelledby="courseware-howto">
        {product.pcard10 ? <p>{t('courseware.isbn', { isbn: product.pcard10 })}</p> : null}
        {product.redemptionUrl ? (
          <p>
            <a href={product.redemptionUrl} target="_blank" rel="noopener noreferrer">
              {t('courseware.redemption')}
            </a>
          </p>
        ) : null}
        <h2 id="courseware-howto">{t('courseware.howTo')}</h2>
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
