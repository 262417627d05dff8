import {
  featureWording,
  type ProductFeature,
  promisedFeatures,
} from '#domain/catalog/product-features.ts';
import { useT } from '#web/i18n/use-t.ts';
import { WordingText } from '#web/i18n/wording-text.tsx';

/**
 * Product features as name and detail, in the page's language where the store describes the
 * feature and in the product's (`language`) where its source did; the spec's 'no information'
 * text when there are none. Only what our reader does (issue 19: no offline reading).
 */
export function FeatureList({
  features,
  language,
}: {
  features: ProductFeature[] | undefined;
  language: string;
}) {
  const t = useT();
  const shown = promisedFeatures(features ?? []);
  if (!shown.length) return <p>{t('product.noInformation')}</p>;
  return (
    <dl className="features">
      {shown.map((feature, index) => {
        const wording = featureWording(feature);
        return (
          <div key={`${feature.code ?? feature.name}-${index}`}>
            <dt>
              <WordingText wording={wording.name} language={language} />
            </dt>
            {wording.detail ? (
              <dd>
                <WordingText wording={wording.detail} language={language} />
              </dd>
            ) : null}
          </div>
        );
      })}
    </dl>
  );
}
