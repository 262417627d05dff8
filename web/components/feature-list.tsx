import { useT } from '#web/i18n/use-t.ts';

/** Product features as name and detail; the spec's 'no information' text when there are none. */
export function FeatureList({
  features,
}: {
  features: { name: string; detail: string | null }[] | undefined;
}) {
  const t = useT();
  if (!features?.length) return <p>{t('product.noInformation')}</p>;
  return (
    <dl className="features">
      {features.map((feature) => (
        <div key={feature.name}>
          <dt>{feature.name}</dt>
          {feature.detail ? <dd>{feature.detail}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
