import { data, redirect, useLoaderData } from 'react-router';
import { productDetail } from '#domain/catalog/service.ts';
import { PriceText } from '#web/components/price-text.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { rootDataFrom } from '#web/utils/meta.ts';
import type { Route } from './+types/product.ts';

const ID = /^[1-9]\d{0,9}$/;

// /book/{id}[/{slug}], /courseware/…, /classroom/…, /collection/…, /product-detail/{id}:
// a wrong type or slug answers 301 to the canonical URL; a malformed or unknown id is 404.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  if (!ID.test(params.id) || Number(params.id) > 2_147_483_647) throw data(null, { status: 404 });
  const product = await productDetail(context.rc, Number(params.id));
  const url = new URL(request.url);
  const isDetailRoute = url.pathname.startsWith('/product-detail/');
  if (!isDetailRoute && url.pathname.replace(/\/$/, '') !== product.path) {
    throw redirect(product.path + url.search, 301);
  }
  return { product, canonical: new URL(product.path, url.origin).href };
});

export default function ProductPage() {
  const { product } = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const removed = product.status === 'withdrawn';
  const details: [string, string | number | null][] = [
    [t('product.soldBy'), product.publisher],
    [t('product.isbns'), product.isbns.map((i) => i.value).join(', ')],
    [t('product.publishYear'), product.publishYear],
    [t('product.language'), languageName(locale, product.languageCode)],
    [t('product.numPages'), product.numPages],
    [t('product.edition'), product.edition],
  ];
  return (
    <article className="product">
      <div className="product__cover">
        <img
          src={`/covers/${product.id}.svg`}
          alt={t('product.coverAlt', { title: product.title })}
          width={300}
          height={450}
        />
      </div>
      <div className="stack">
        <p className="card__type">{t(`type.${product.productType}`)}</p>
        <h1>{product.title}</h1>
        {product.subtitle && product.subtitle !== 'None' ? (
          <p className="product__subtitle">{product.subtitle}</p>
        ) : null}
        {product.authors ? <p>{t('card.byAuthor', { author: product.authors })}</p> : null}
        {product.isbn ? <p>{t('product.isbn', { isbn: product.isbn })}</p> : null}
        <p className="product__price">
          <PriceText price={product.price} />
        </p>
        {removed || product.status === 'deactivated' ? (
          <p className="alert alert--error">
            {removed ? t('product.removedFromSale') : t('product.unavailable')}
          </p>
        ) : null}
        <section className="stack" aria-labelledby="description-heading">
          <h2 id="description-heading">{t('product.description')}</h2>
          <p className="prose">{product.description}</p>
        </section>
        <section className="stack" aria-labelledby="details-heading">
          <h2 id="details-heading">{t('product.additionalDetails')}</h2>
          <table className="details-table">
            <tbody>
              {details
                .filter(([, value]) => value !== null && value !== '')
                .map(([label, value]) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    <td>{value}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      </div>
    </article>
  );
}

/** 'en' shown as 'English' (or 'anglais' in French); an unknown code as itself. */
function languageName(locale: string, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const root = rootDataFrom(matches);
  // Without data the error boundary renders its own title.
  if (!loaderData) return [];
  const { product, canonical } = loaderData;
  return [
    { title: `${product.title} | ${root?.site.title ?? 'Shelfmark'}` },
    { name: 'description', content: product.description.split(/\s+/).slice(0, 40).join(' ') },
    { tagName: 'link', rel: 'canonical', href: canonical },
  ];
};
