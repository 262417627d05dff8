import type { AccessibilityGroup } from '#domain/catalog/accessibility-metadata.ts';
import type { ProductFeature } from '#domain/catalog/product-features.ts';
import { useT } from '#web/i18n/use-t.ts';
import { AccessibilityMetadata } from './accessibility-metadata.tsx';
import { FeatureList } from './feature-list.tsx';
import * as Tabs from './tabs.tsx';

// Tabs 'eBook Features' and 'ACCESSIBILITY'; the accessibility tab shows only for EPUB.
export function ProductTabs({
  features,
  accessibility,
  language,
}: {
  features: ProductFeature[];
  accessibility: AccessibilityGroup[] | null;
  /** The product's language, for what its publisher wrote. */
  language: string;
}) {
  const t = useT();
  return (
    <Tabs.Root defaultValue="features" className="tabs">
      <Tabs.List className="tabs__list" aria-label={t('product.tabs')}>
        <Tabs.Trigger value="features" className="tabs__tab">
          {t('product.ebookFeatures')}
        </Tabs.Trigger>
        {accessibility ? (
          <Tabs.Trigger value="accessibility" className="tabs__tab">
            {t('product.accessibilityTab')}
          </Tabs.Trigger>
        ) : null}
      </Tabs.List>
      <Tabs.Content value="features" className="tabs__panel">
        <FeatureList features={features} language={language} />
      </Tabs.Content>
      {accessibility ? (
        <Tabs.Content value="accessibility" className="tabs__panel">
          <AccessibilityMetadata groups={accessibility} language={language} />
        </Tabs.Content>
      ) : null}
    </Tabs.Root>
  );
}
