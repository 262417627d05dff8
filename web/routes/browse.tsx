import { Form, Link, redirect, useLoaderData, useNavigate } from 'react-router';
import { categoryBySlug, topCategories, tray } from '#domain/catalog/categories.ts';
import { isBrowseShown } from '#domain/sites/site-rules.ts';
import { Breadcrumb } from '#web/components/breadcrumb.tsx';
import { ProductTray } from '#web/components/product-tray.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { publicPage } from '#web/utils/public-page.server.ts';
import type { Route } from './+types/browse.ts';

export const loader = withDomainErrors(async ({ params, context }: Route.LoaderArgs) => {
  if (!isBrowseShown(context.rc.site)) throw redirect('/');
  const category =
    params.slug === 'all' ? null : await categoryBySlug(context.catalogRc, params.slug);
  const [top, bestSellers, campusFavorites] = await Promise.all([
    topCategories(context.catalogRc),
    tray(context.catalogRc, { order: 'sales', categoryId: category?.id }),
    tray(context.catalogRc, { order: 'adoptions', categoryId: category?.id }),
  ]);
  publicPage(context, [...bestSellers, ...campusFavorites], { page: 'shell' });
  return { category, top, bestSellers, campusFavorites };
});

export default function BrowsePage() {
  const { category, top, bestSellers, campusFavorites } = useLoaderData<typeof loader>();
  const t = useT();
  const navigate = useNavigate();
  const nav = category ? category.children : top;
  return (
    <div className="stack-lg">
      <section className="stack">
        {category ? <Breadcrumb trail={category.ancestors} current={category.title} /> : null}
        <h1>{category ? category.title : t('browse.allCategories')}</h1>
        <div className="browse__tools">
          <Form method="get" action="/browse" className="browse__select">
            <label htmlFor="category-select">{t('browse.selectLabel')}</label>
            <select
              id="category-select"
              name="category"
              defaultValue={category?.urlSlug ?? 'all'}
              onChange={(event) => navigate(`/browse/${event.currentTarget.value}`)}
            >
              <option value="all">{t('browse.selectAll')}</option>
              {top.map((c) => (
                <option key={c.id} value={c.urlSlug}>
                  {c.title}
                </option>
              ))}
            </select>
            <noscript>
              <button type="submit" className="button button--secondary">
                {t('browse.go')}
              </button>
            </noscript>
          </Form>
          <SearchBox id="browse-search" />
        </div>
        {nav.length > 0 ? (
          <nav aria-label={t('browse.categories')}>
            <ul className="chips">
              {nav.map((c) => (
                <li key={c.id}>
                  <Link to={`/browse/${c.urlSlug}`} className="chip">
                    {c.title}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <p>
          <Link to="/browse/all">{t('browse.viewAll')}</Link>
        </p>
      </section>
      <ProductTray titleId="tray.bestSellers" products={bestSellers} />
      <ProductTray titleId="tray.campusFavorites" products={campusFavorites} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'browse.title', undefined, 'browse.description');
