import { Link, useLoaderData } from 'react-router';
import { featuredTrays, sellableProductCount } from '#domain/catalog/service.ts';
import { isEcommerceShown } from '#domain/sites/site-rules.ts';
import { ProductTray } from '#web/components/product-tray.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { useRootData, useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { publicPage } from '#web/utils/public-page.server.ts';
import type { Route } from './+types/home.ts';

export async function loader({ context }: Route.LoaderArgs) {
  const [trays, count] = await Promise.all([
    featuredTrays(context.catalogRc),
    sellableProductCount(context.catalogRc),
  ]);
  publicPage(context, [...trays.bestSellers, ...trays.campusFavorites], { page: 'shell' });
  return { ...trays, count, showShop: isEcommerceShown(context.rc.site) };
}

export default function HomePage() {
  const { bestSellers, campusFavorites, count, showShop } = useLoaderData<typeof loader>();
  const t = useT();
  const root = useRootData();
  return (
    <div className="stack-lg">
      <section className="hero stack">
        <h1>{t('home.heading')}</h1>
        <p className="hero__lede">{t('home.lede', { count })}</p>
        {showShop ? <SearchBox id="home-search" /> : null}
        <p className="cluster">
          <Link to="/courses/find" className="button button--primary">
            {t('courseFinder.link')}
          </Link>
          {root?.site.isWhiteLabel ? null : <Link to="/browse/all">{t('home.browse')}</Link>}
        </p>
      </section>
      <ProductTray titleId="tray.bestSellers" products={bestSellers} />
      <ProductTray titleId="tray.campusFavorites" products={campusFavorites} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'home.title', undefined, 'home.description');
