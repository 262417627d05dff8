import { useContentLang } from '#web/i18n/content-lang.ts';
import { useT } from '#web/i18n/use-t.ts';

export type RemovedLineView = {
  title: string;
  languageCode: string;
  refusal: { reason: string; params: Record<string, string> };
};

/**
 * What the cart lost before payment and why (issue 19): a title the shopper already holds for
 * as long or longer, or one with nothing to deliver, is taken out (domain/commerce/cart.ts
 * reconcileCart), and the cart page, checkout and the cart sheet say so here. A status region:
 * screen readers hear it when it appears, without taking the focus away.
 */
export function RemovedLinesNotice({ removed }: { removed: readonly RemovedLineView[] }) {
  const t = useT();
  const langOf = useContentLang();
  if (removed.length === 0) return null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: <output> is a calculation's result; this is a notice holding a list
    <div className="alert alert--info stack" role="status">
      <p>
        <strong>{t('cart.removed.heading')}</strong>
      </p>
      <ul>
        {removed.map((line) => (
          <li key={`${line.title}:${line.refusal.reason}`}>
            <strong {...langOf(line.languageCode)}>{line.title}</strong> {t('cart.removed.line')}{' '}
            {t(line.refusal.reason, line.refusal.params)}
          </li>
        ))}
      </ul>
    </div>
  );
}
