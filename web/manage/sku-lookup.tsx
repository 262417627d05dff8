import { data, Form, Link, useLoaderData, useNavigation } from 'react-router';
import { UNAVAILABILITY_MESSAGE } from '#domain/catalog/availability.ts';
import { offeringNameWords } from '#domain/catalog/offering-terms.ts';
import { productPath } from '#domain/catalog/product-route.ts';
import { SKU_MAX_LENGTH } from '#domain/catalog/sku.ts';
import { lookUpSku, type SkuProduct } from '#domain/catalog/sku-lookup.ts';
import { isOutOfStock } from '#domain/commerce/inventory-rules.ts';
import { DomainError } from '#domain/shared/errors.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/sku-lookup.ts';

// /manage/sku-lookup?sku=… (spec 1 §2 user menu, "Bookstore Manager: SKU Lookup (managers or
// bookstore managers)"): the product a number names, its identifiers, its offerings with price
// and stock, whether a student can buy it here now, and the running sections of the staff
// member's campuses that list it. A plain search form: the address can be shared.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const { scope } = requireTool(request, context, 'skuLookup');
  const typed = new URL(request.url).searchParams.get('sku');
  if (typed === null) return { typed: '', error: null, result: null };
  try {
    return {
      typed: typed.slice(0, SKU_MAX_LENGTH),
      error: null,
      result: await lookUpSku(context.rc, scope, typed),
    };
  } catch (error) {
    if (error instanceof DomainError && error.status === 400) {
      return data(
        { typed: typed.slice(0, SKU_MAX_LENGTH), error: error.messageKey, result: null },
        { status: 400 },
      );
    }
    throw error;
  }
});

export default function SkuLookupPage() {
  const { typed, error, result } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === 'loading';
  const t = useT();
  return (
    <section className="stack-lg">
      <h1>{t('menu.skuLookup')}</h1>
      <Form method="get" className="stack" role="search" aria-label={t('menu.skuLookup')}>
        <div className="field">
          <label htmlFor="sku">{t('skuLookup.field')}</label>
          <p className="field__hint" id="sku-hint">
            {t('skuLookup.hint')}
          </p>
          <input
            id="sku"
            name="sku"
            type="search"
            inputMode="text"
            defaultValue={typed}
            maxLength={SKU_MAX_LENGTH}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'sku-hint sku-error' : 'sku-hint'}
          />
          {error ? (
            <p className="field__error" id="sku-error" role="alert">
              {t(error)}
            </p>
          ) : null}
        </div>
        <p>
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('skuLookup.submit')}
          </button>
        </p>
      </Form>
      {/* Always there, so that what a search found is read out as it arrives. */}
      <output className={result?.products.length === 0 ? 'alert alert--info' : 'visually-hidden'}>
        {result
          ? result.products.length === 0
            ? t('skuLookup.none', { sku: result.sku })
            : t('skuLookup.found', { count: result.products.length })
          : null}
      </output>
      {result && result.products.length > 0 ? (
        <div className="stack-lg">
          {result.products.map((product) => (
            <ProductFound key={product.id} product={product} />
          ))}
        </div>
      ) : null}
    </section>
  );
}

function ProductFound({ product }: { product: SkuProduct }) {
  const t = useT();
  const locale = useLocale();
  const headingId = `sku-product-${product.id}`;
  const offeringsLabel = t('skuLookup.offerings', { title: product.title });
  const sectionsLabel = t('skuLookup.sections', { title: product.title });
  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <Link to={productPath(product)}>{product.title}</Link>
      </h2>
      <dl className="helpdesk-facts">
        <dt>{t('skuLookup.type')}</dt>
        <dd>{t(`skuLookup.productType.${product.productType}`)}</dd>
        {product.authors ? (
          <>
            <dt>{t('skuLookup.authors')}</dt>
            <dd>{product.authors}</dd>
          </>
        ) : null}
        {product.publisher ? (
          <>
            <dt>{t('product.soldBy')}</dt>
            <dd>{product.publisher}</dd>
          </>
        ) : null}
        <dt>{t('skuLookup.identifiers')}</dt>
        <dd>
          <ul className="order-facts">
            {product.identifiers.map((identifier) => (
              <li key={identifier.type}>
                {t(`skuLookup.identifier.${identifier.type}`)}{' '}
                <span className="nowrap">{identifier.value}</span>
              </li>
            ))}
          </ul>
        </dd>
        <dt>{t('skuLookup.forStudents')}</dt>
        <dd>
          {product.unavailable
            ? t(UNAVAILABILITY_MESSAGE[product.unavailable])
            : t('skuLookup.onSale')}
        </dd>
      </dl>
      <TableScroll label={offeringsLabel}>
        <table className="data-table data-table--stack">
          <caption className="visually-hidden">{offeringsLabel}</caption>
          <thead>
            <tr>
              <th scope="col">{t('skuLookup.offering')}</th>
              <th scope="col" className="num">
                {t('skuLookup.price')}
              </th>
              <th scope="col" className="num">
                {t('skuLookup.stock')}
              </th>
              <th scope="col">{t('skuLookup.offered')}</th>
            </tr>
          </thead>
          <tbody>
            {product.offerings.map((offer) => (
              <tr key={offer.id}>
                <th scope="row">
                  {offeringNameWords(t, { ...offer, productType: product.productType })}
                </th>
                <td className="num" data-label={t('skuLookup.price')}>
                  {formatMoney(locale, offer.priceCents, offer.currencyCode)}
                </td>
                <td className="num" data-label={t('skuLookup.stock')}>
                  {offer.stock === null
                    ? t('skuLookup.notCounted')
                    : new Intl.NumberFormat(locale).format(offer.stock)}
                </td>
                <td data-label={t('skuLookup.offered')}>
                  {offer.offered
                    ? isOutOfStock(offer.stock)
                      ? t('skuLookup.offered.noStock')
                      : t('skuLookup.offered.yes')
                    : offer.isActive
                      ? t('skuLookup.offered.notDeliverable')
                      : t('skuLookup.offered.inactive')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {product.offerings.length === 0 ? <p>{t('skuLookup.noOfferings')}</p> : null}
      <h3>{sectionsLabel}</h3>
      {product.sections.length === 0 ? (
        <p>{t('skuLookup.noSections')}</p>
      ) : (
        <TableScroll label={sectionsLabel}>
          <table className="data-table data-table--stack">
            <caption className="visually-hidden">{sectionsLabel}</caption>
            <thead>
              <tr>
                <th scope="col">{t('skuLookup.section')}</th>
                <th scope="col">{t('skuLookup.term')}</th>
                <th scope="col">{t('skuLookup.required')}</th>
                <th scope="col" className="num">
                  {t('skuLookup.students')}
                </th>
                <th scope="col" className="num">
                  {t('skuLookup.optedIn')}
                </th>
              </tr>
            </thead>
            <tbody>
              {product.sections.map((section) => (
                <tr key={section.id}>
                  <th scope="row">
                    {section.sectionNumber
                      ? t('skuLookup.sectionName', {
                          course: section.course,
                          number: section.sectionNumber,
                        })
                      : section.course}
                    <span className="line-detail">{section.courseName}</span>
                  </th>
                  <td data-label={t('skuLookup.term')}>{section.term ?? '—'}</td>
                  <td data-label={t('skuLookup.required')}>
                    {section.isRequired ? t('skuLookup.required.yes') : t('skuLookup.required.no')}
                  </td>
                  <td className="num" data-label={t('skuLookup.students')}>
                    {section.students}
                  </td>
                  <td className="num" data-label={t('skuLookup.optedIn')}>
                    {section.optedIn}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {product.moreSections > 0 ? (
        <p>{t('skuLookup.moreSections', { count: product.moreSections })}</p>
      ) : null}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'skuLookup.pageTitle');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
