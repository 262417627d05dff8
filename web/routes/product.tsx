import type { ReactNode } from 'react';
import { data, Link, redirect, useLoaderData } from 'react-router';
import { UNAVAILABILITY_MESSAGE } from '#domain/catalog/availability.ts';
import { roleMessage } from '#domain/catalog/contributors.ts';
import { coverUrl } from '#domain/catalog/cover-image.ts';
import { editionWording } from '#domain/catalog/edition.ts';
import { hasReaderFile } from '#domain/catalog/reader-file.ts';
import { productDetail, relatedProducts } from '#domain/catalog/service.ts';
import { jsonForScript, productJsonLd } from '#domain/catalog/structured-data.ts';
import { parseId } from '#domain/shared/id.ts';
import { isFreeToAdd } from '#domain/shelf/free-book-rule.ts';
import { CoverPicture } from '#web/catalog/cover-picture.tsx';
import { OwnedNotice } from '#web/catalog/owned-notice.tsx';
import { AddToCartForm } from '#web/commerce/add-to-cart-form.tsx';
import { BookFileList } from '#web/components/book-file-list.tsx';
import { Breadcrumb } from '#web/components/breadcrumb.tsx';
import { DetailsTable } from '#web/components/details-table.tsx';
import { PersonalSlot } from '#web/components/personal-slot.tsx';
import { PriceText } from '#web/components/price-text.tsx';
import { ProductTabs } from '#web/components/product-tabs.tsx';
import { ProductTray } from '#web/components/product-tray.tsx';
import { ProductTypeSections } from '#web/components/product-type-sections.tsx';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useT } from '#web/i18n/use-t.ts';
import { WordingText } from '#web/i18n/wording-text.tsx';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { useInnerHtml } from '#web/utils/inner-html.ts';
import { languageName } from '#web/utils/language-name.ts';
import { rootDataFrom } from '#web/utils/meta.ts';
import { usePersonalData } from '#web/utils/personal-part.ts';
import { publicPage } from '#web/utils/public-page.server.ts';
import type { Route } from './+types/product.ts';
import { type ProductPersonal, productPersonal } from './product.server.ts';

// /book/{id}[/{slug}], /courseware/…, /classroom/…, /collection/…, /product-detail/{id}:
// a wrong type or slug answers 301 to the canonical URL; a malformed or unknown id is 404.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const id = parseId(params.id);
  if (id === null) throw data(null, { status: 404 });
  const detail = await productDetail(context.catalogRc, id);
  const url = new URL(request.url);
  const isDetailRoute = url.pathname.startsWith('/product-detail/');
  if (!isDetailRoute && url.pathname.replace(/\/$/, '') !== detail.path) {
    throw redirect(detail.path + url.search, 301);
  }
  // What the page shows of this visitor, decided once for this loader and for a logged-in page
  // composed from the stored anonymous one (decision 043).
  const personal = await productPersonal(context, detail, url);
  const related = await relatedProducts(context.catalogRc, detail);
  publicPage(context, [detail, ...related, ...detail.items], { page: 'product', productId: id });
  const canonical = new URL(detail.path, url.origin).href;
  return withProductPersonal(
    {
      product: detail,
      // Named on the server: Intl.DisplayNames loads the browser's language names on first use,
      // 69 ms of one hydration task on a desktop, four times that on a phone (issue 13).
      languageName: languageName(context.rc.locale, detail.languageCode),
      related,
      // spec 1 §2: bought for a course (cart item courseId, checkout ?ecommerce_course_id=…).
      courseId: parseId(url.searchParams.get('ecommerce_course_id')),
      host: context.rc.site.host,
      canonical,
      // The wallet button's gateway, and the fee its order will carry (the same for every
      // visitor of this site, so the page stays shareable).
      payments: context.browserPayments,
      platformFee: context.rc.site.org?.platformFee ?? null,
      // "Today" for the day a rental would end if bought now (issue 19).
      now: context.rc.now.toISOString(),
    },
    personal,
  );
});

/**
 * The page's data with the visitor's part (web/routes/product.server.ts): the loader's, and in
 * the browser a page composed from the stored anonymous one (web/utils/personal-part.ts).
 */
function withProductPersonal<T extends { product: { offerings: readonly { id: number }[] } }>(
  page: T,
  personal: ProductPersonal,
) {
  const { buyableOfferingIds, ...facts } = personal;
  return {
    ...page,
    ...facts,
    product: {
      ...page.product,
      offerings: page.product.offerings.filter((offering) =>
        buyableOfferingIds.includes(offering.id),
      ),
    },
  };
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

/** The composed page's data: the anonymous page's offerings are every buyable one. */
const applyProductPersonal = <T extends { product: { offerings: readonly { id: number }[] } }>(
  page: T,
  personal: ProductPersonal,
): T => withProductPersonal(page, personal) as T;

export default function ProductPage() {
  const {
    product,
    languageName: productLanguage,
    related,
    host,
    selectedId,
    panel,
    canonical,
    owned,
    nothingToBuy,
    withheld,
    until,
    opens,
    classroom,
    loggedIn,
    courseId,
    courseFeeSectionId,
    payments,
    platformFee,
    now,
  } = usePersonalData<PageData, ProductPersonal>(
    'page',
    useLoaderData<typeof loader>(),
    applyProductPersonal,
  );
  const readerFile = hasReaderFile(product.bookFiles);
  // Built while rendering, not in the loader: the browser has every fact already, and the
  // hydration data need not carry the description twice.
  const jsonLd = jsonForScript(
    productJsonLd({
      url: canonical,
      imageUrl: new URL(coverUrl(product.id, 600, product.cover), canonical).href,
      productType: product.productType,
      title: product.title,
      authors: product.authors,
      publisher: product.publisher,
      description: product.description,
      isbn: product.isbn,
      offerings: product.offerings,
      available: product.unavailable === null,
    }),
  );
  const jsonLdHtml = useInnerHtml(jsonLd);
  const t = useT();
  // The product's own words (title, subtitle, description) are in its language (issue 13).
  const own = useContentLang()(product.languageCode);
  const edition = editionWording(product);
  const editionCell = edition ? (
    <WordingText wording={edition} language={product.languageCode} />
  ) : null;
  const details: [string, ReactNode][] = [
    [t('product.soldBy'), product.publisher],
    [t('product.isbns'), product.isbns.map((i) => i.value).join(', ')],
    [t('product.publishYear'), product.publishYear],
    [t('product.language'), productLanguage],
    [t('product.numPages'), product.numPages],
    [t('product.edition'), editionCell],
  ];
  return (
    <div className="stack-lg">
      {product.breadcrumb.length > 0 ? (
        <Breadcrumb
          trail={product.breadcrumb}
          current={product.title}
          currentLanguage={product.languageCode}
        />
      ) : null}
      <article className="product">
        <script
          type="application/ld+json"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with `<` escaped (jsonForScript)
          dangerouslySetInnerHTML={jsonLdHtml}
        />
        <div className="product__cover">
          <CoverPicture
            productId={product.id}
            version={product.cover}
            width={300}
            // The page's largest image: asked for before the scripts (issue 13).
            fetchPriority="high"
            alt={t('product.coverAlt', { title: product.title })}
          />
        </div>
        <div className="stack">
          <p className="card__type">{t(`type.${product.productType}`)}</p>
          <h1 {...own}>{product.title}</h1>
          {product.subtitle && product.subtitle !== 'None' ? (
            <p className="product__subtitle" {...own}>
              {product.subtitle}
            </p>
          ) : null}
          {product.authors ? <p>{t('card.byAuthor', { author: product.authors })}</p> : null}
          {product.contributors.length > 0 ? (
            <p>
              {product.contributors
                .map((c) =>
                  t('product.contributor', { name: c.name, role: t(roleMessage(c.role)) }),
                )
                .join(' · ')}
            </p>
          ) : null}
          {product.series ? (
            <p>
              {t('product.series')} <span {...own}>{product.series}</span>
            </p>
          ) : null}
          {product.isbn ? <p>{t('product.isbn', { isbn: product.isbn })}</p> : null}
          <p className="product__price">
            <PriceText price={product.price} />
          </p>
          {product.unavailable ? (
            <p className="alert alert--error">
              {t(UNAVAILABILITY_MESSAGE[product.unavailable], { host })}
            </p>
          ) : null}
          {/* Written by the server into a page composed for a logged-in visitor (decision
              043), so a browser without JavaScript sees what they have too. */}
          <PersonalSlot as="div" name="owned" className="personal-slot">
            <OwnedNotice
              t={t}
              productId={product.id}
              hasReaderFile={readerFile}
              owned={owned}
              until={until}
              opens={opens}
              classroom={classroom}
            />
          </PersonalSlot>
          {/* Emptied by the server in a composed page when there is nothing left to buy. */}
          <PersonalSlot as="div" name="buy" className="personal-slot stack">
            {nothingToBuy ? null : isFreeToAdd(product) ? (
              // spec 1 §4 Shelf button: a free book is added to the shelf, then read.
              // Access through a course (above) still lets the student buy a copy of their own.
              loggedIn ? (
                <AddToShelfForm productId={product.id} />
              ) : (
                <p>
                  <Link
                    to={`/accounts/login/?next=${encodeURIComponent(product.path)}`}
                    className="button button--primary"
                  >
                    {t('product.addToShelf')}
                  </Link>
                </p>
              )
            ) : panel.visible ? (
              <>
                {withheld ? <p className="form-hint">{t('product.withheld')}</p> : null}
                <AddToCartForm
                  productId={product.id}
                  productTitle={product.title}
                  productPath={product.path}
                  courseId={courseId}
                  courseFeeSectionId={courseFeeSectionId}
                  loggedIn={loggedIn}
                  offerings={product.offerings}
                  panel={panel}
                  selectedId={selectedId}
                  payments={payments}
                  platformFee={platformFee}
                  now={now}
                />
              </>
            ) : null}
          </PersonalSlot>
          <section className="stack" aria-labelledby="description-heading">
            <h2 id="description-heading">{t('product.description')}</h2>
            {/* A publisher's paragraphs and list lines as they wrote them (issue 15); a feed
                may send none, and then the page says so in the spec's words (spec 2 §9). */}
            {product.description.trim() ? (
              <div className="prose stack-sm" {...own}>
                {product.description.split(/\n{2,}/).map((paragraph, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no identity
                  <p key={index}>{paragraph}</p>
                ))}
              </div>
            ) : (
              <p className="prose">{t('shelf.panel.noDescription')}</p>
            )}
          </section>
          {product.productType === 'book' || product.productType === 'ebundle' ? (
            <ProductTabs
              features={product.ebookFeatures}
              accessibility={product.accessibility}
              language={product.languageCode}
            />
          ) : null}
          <ProductTypeSections product={product} />
          <BookFileList files={product.bookFiles} owned={owned} />
          <section className="stack" aria-labelledby="details-heading">
            <h2 id="details-heading">{t('product.additionalDetails')}</h2>
            <DetailsTable rows={details} />
          </section>
        </div>
      </article>
      {related.length > 0 ? <ProductTray titleId="product.related" products={related} /> : null}
    </div>
  );
}

/**
 * A free book's Add to Shelf form. Its own component: the token an anonymous page fetches after
 * hydration renders this form again, not the whole product page (issue 13).
 */
function AddToShelfForm({ productId }: { productId: number }) {
  const t = useT();
  const csrfToken = useCsrfToken();
  return (
    <form method="post" action="/ajax/book/free/">
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
      <input type="hidden" name="productId" value={productId} />
      <button type="submit" className="button button--primary">
        {t('product.addToShelf')}
      </button>
    </form>
  );
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
